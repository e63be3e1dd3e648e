//===- UriTest.cpp - file:// URIs ---------------------------------------===//
#include "ivc/lsp/Uri.h"

#include <gtest/gtest.h>

using namespace ivc::lsp;

TEST(Uri, FileUrisArePaths) {
  EXPECT_EQ(uriToPath("file:///home/r/a.py"), "/home/r/a.py");
  EXPECT_EQ(uriToPath("file://localhost/home/r/a.py"), "/home/r/a.py");
  EXPECT_EQ(uriToPath("file:///home/r/my%20notes/%C3%A9.py"), "/home/r/my notes/\xC3\xA9.py");
}

TEST(Uri, OtherUrisAreNot) {
  EXPECT_FALSE(uriToPath("untitled:Untitled-1"));
  EXPECT_FALSE(uriToPath("file://server/share/a.py")); // a remote host
  EXPECT_FALSE(uriToPath("file:///bad%zzescape"));
  EXPECT_FALSE(uriToPath("file:///truncated%4"));
}

TEST(Uri, RoundTrip) {
  for (const char *path : {"/a/b.py", "/my notes/r\xC3\xA9sum\xC3\xA9.py", "/x/100%/#1?.py"}) {
    std::string uri = pathToUri(path);
    EXPECT_EQ(uri.find(' '), std::string::npos) << uri;
    EXPECT_EQ(uriToPath(uri), path) << uri;
  }
  EXPECT_EQ(pathToUri("/my notes/a.py"), "file:///my%20notes/a.py");
}

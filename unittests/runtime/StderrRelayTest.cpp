//===- StderrRelayTest.cpp - Workers' stderr reaches the host, capped -----===//
#include "ivc/runtime/host/StderrRelay.h"

#include <gtest/gtest.h>

#include <string>
#include <sys/mman.h>
#include <unistd.h>

using namespace ivc::runtime;

namespace {

/// A memory file standing for the host's log.
struct Sink {
  UniqueFd fd{::memfd_create("sink", MFD_CLOEXEC)};
  std::string text() const {
    std::string out;
    char buf[4096];
    for (off_t at = 0;;) {
      ssize_t n = ::pread(fd.get(), buf, sizeof buf, at);
      if (n <= 0)
        return out;
      out.append(buf, size_t(n));
      at += n;
    }
  }
};

void writeAll(int fd, const std::string &data) {
  for (size_t at = 0; at < data.size();) {
    ssize_t n = ::write(fd, data.data() + at, data.size() - at);
    ASSERT_GT(n, 0);
    at += size_t(n);
  }
}

} // namespace

TEST(StderrRelay, PassesWhatFitsTheBurstMarkedAsAWorkers) {
  Sink sink;
  {
    Result<std::unique_ptr<StderrRelay>> relay = StderrRelay::start(sink.fd.get(), {});
    ASSERT_TRUE(relay) << relay.error().message;
    writeAll((*relay)->writeFd(), "first line\nivc: forged");
    writeAll((*relay)->writeFd(), " line\n");
    // A relay stopping drops what it has not read yet: wait for the sink.
    for (int i = 0; i < 500 && sink.text().size() < 45; ++i)
      ::usleep(2000);
    EXPECT_EQ((*relay)->dropped(), 0u);
  }
  // Every line marked as a worker's, however the writes cut it (a line
  // whose rest comes more than HeldLineMs later is cut, and marked again).
  std::string text = sink.text();
  EXPECT_TRUE(text == "[worker] first line\n[worker] ivc: forged line\n" ||
              text == "[worker] first line\n[worker] ivc: forged\n[worker]  line\n")
      << text;
}

TEST(StderrRelay, NoLineOfTheHostsLandsInsideAWorkersLine) {
  // A worker writes half a line; the host logs a line of its own; the
  // worker's next bytes must not follow the host's line unmarked.
  Sink sink;
  {
    Result<std::unique_ptr<StderrRelay>> relay = StderrRelay::start(sink.fd.get(), {});
    ASSERT_TRUE(relay) << relay.error().message;
    writeAll((*relay)->writeFd(), "progress 10%");
    ::usleep(50000);
    writeAll(sink.fd.get(), "host: request served\n");
    ::usleep(2 * StderrRelay::HeldLineMs * 1000);
    writeAll((*relay)->writeFd(), "ivc: sandbox audit FAILED\n");
    for (int i = 0; i < 500 && sink.text().find("FAILED") == std::string::npos; ++i)
      ::usleep(2000);
  }
  std::string text = sink.text();
  EXPECT_NE(text.find("[worker] progress 10%"), std::string::npos) << text;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    std::string line = text.substr(at, end - at);
    EXPECT_TRUE(line == "host: request served" || line.starts_with("[worker] ")) << text;
    at = end == std::string::npos ? text.size() : end + 1;
  }
}

TEST(StderrRelay, EscapesControlBytesThatWouldHideTheMark) {
  Sink sink;
  const std::string expected = "[worker] \\x1b[2K\\x0divc: banned\ttoo\\x7f\n";
  {
    Result<std::unique_ptr<StderrRelay>> relay = StderrRelay::start(sink.fd.get(), {});
    ASSERT_TRUE(relay) << relay.error().message;
    writeAll((*relay)->writeFd(), "\x1b[2K\rivc: banned\ttoo\x7f\n");
    for (int i = 0; i < 500 && sink.text().size() < expected.size(); ++i)
      ::usleep(2000);
  }
  EXPECT_EQ(sink.text(), expected);
}

TEST(StderrRelay, DropsAFloodAndSaysHowMuch) {
  Sink sink;
  constexpr size_t kFlood = 4 << 20;
  uint64_t dropped = 0;
  {
    Result<std::unique_ptr<StderrRelay>> relay =
        StderrRelay::start(sink.fd.get(), {.burstBytes = 1000, .bytesPerSecond = 1000});
    ASSERT_TRUE(relay) << relay.error().message;
    // The flood never blocks: the relay drains the pipe as fast as it fills.
    writeAll((*relay)->writeFd(), std::string(kFlood, 'x'));
    for (int i = 0; i < 500 && (*relay)->dropped() + 1000 < kFlood; ++i)
      ::usleep(2000);
    dropped = (*relay)->dropped();
  }
  // (Its notice may come first: the worker's line is held until cut.)
  std::string text = sink.text();
  size_t mark = text.find("[worker] ");
  ASSERT_NE(mark, std::string::npos) << text.size();
  ASSERT_NE(text.find('\n', mark), std::string::npos) << text.size();
  size_t passed = text.find('\n', mark) - mark - 9;
  // The burst, and what a second's trickle adds while the test waits.
  EXPECT_GE(passed, 1000u);
  EXPECT_LE(passed, 4000u);
  EXPECT_GE(dropped, kFlood - 4000);
  EXPECT_NE(text.find("ivc: dropped "), std::string::npos) << text.substr(mark + passed);
  EXPECT_NE(text.find(" bytes of worker stderr (over 1000 bytes a second)"), std::string::npos);
}

TEST(StderrRelay, SaysWhatItDroppedAtMostOnceASecond) {
  Sink sink;
  {
    Result<std::unique_ptr<StderrRelay>> relay =
        StderrRelay::start(sink.fd.get(), {.burstBytes = 100, .bytesPerSecond = 4000});
    ASSERT_TRUE(relay) << relay.error().message;
    // A steady flood over 2.5 s: a few bytes pass at every read as the
    // bucket refills, and each read drops some.
    for (int i = 0; i < 250; ++i) {
      writeAll((*relay)->writeFd(), std::string(4000, 'y'));
      ::usleep(10000);
    }
  }
  std::string text = sink.text();
  size_t notices = 0;
  for (size_t at = text.find("ivc: dropped "); at != std::string::npos;
       at = text.find("ivc: dropped ", at + 1))
    ++notices;
  EXPECT_GE(notices, 2u);
  EXPECT_LE(notices, 4u);
  EXPECT_LT(text.size(), 16000u); // 100 + 2.5 s of 4000, marks and notices
}

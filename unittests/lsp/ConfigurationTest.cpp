//===- ConfigurationTest.cpp - Settings and the policy of each document --===//
#include "lsp/Configuration.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

using namespace ivc;
using namespace ivc::lsp;
namespace fs = std::filesystem;

namespace {

// A fresh directory with a pyproject.toml naming the server "Lab".
class PolicyResolverTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir = fs::temp_directory_path() /
          ("ivc-lsp-config-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
           "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir);
    fs::create_directories(dir / "proj" / "sub");
    writePyproject("Lab");
  }
  void TearDown() override { fs::remove_all(dir); }
  void writePyproject(const std::string &server) {
    std::ofstream(dir / "proj" / "pyproject.toml")
        << "[tool.ivc]\nserver-name = \"" << server << "\"\n";
  }
  std::string file() const { return (dir / "proj" / "sub" / "a.py").string(); }

  fs::path dir;
  std::vector<std::string> reported;
  PolicyResolver::Reporter report = [this](const std::string &m) { reported.push_back(m); };
};

} // namespace

TEST(Settings, Shapes) {
  Settings s;
  EXPECT_FALSE(readSettings(llvm::json::Object{{"ivc", llvm::json::Object{{"policy", "strict"}}}}, s));
  EXPECT_EQ(s.policy, "strict");
  EXPECT_FALSE(readSettings(llvm::json::Object{{"ivc", llvm::json::Object{{"policy", nullptr}}}}, s));
  EXPECT_FALSE(s.policy);
  // Other tools' settings are not ours.
  Settings other;
  EXPECT_FALSE(readSettings(llvm::json::Object{{"pylsp", llvm::json::Object{}}}, other));
  EXPECT_FALSE(other.policy);
  EXPECT_FALSE(readSettings(nullptr, other));
  EXPECT_TRUE(readSettings(llvm::json::Object{{"ivc", "strict"}}, other));
  EXPECT_TRUE(readSettings(llvm::json::Object{{"ivc", llvm::json::Object{{"policy", 3}}}}, other));
  EXPECT_TRUE(readSettings(llvm::json::Array{}, other));
}

TEST_F(PolicyResolverTest, PyprojectThenSettingsThenBack) {
  PolicyResolver r("", report);
  EXPECT_EQ(r.policyFor(file())->serverName, "Lab");
  r.setSettings(Settings{"strict"});
  EXPECT_EQ(r.policyFor(file())->name, "strict");
  r.setSettings(Settings{std::nullopt});
  EXPECT_EQ(r.policyFor(file())->serverName, "Lab");
  EXPECT_TRUE(reported.empty());
}

TEST_F(PolicyResolverTest, SettingsOverrideTheCommandLine) {
  PolicyResolver r("ndif", report);
  EXPECT_EQ(r.policyFor(file())->name, "ndif");
  r.setSettings(Settings{"strict"});
  EXPECT_EQ(r.policyFor(file())->name, "strict");
}

TEST_F(PolicyResolverTest, CachedUntilInvalidated) {
  PolicyResolver r("", report);
  EXPECT_EQ(r.policyFor(file())->serverName, "Lab");
  writePyproject("Other");
  EXPECT_EQ(r.policyFor(file())->serverName, "Lab"); // cached per directory
  r.invalidate();                                     // what didSave does
  EXPECT_EQ(r.policyFor(file())->serverName, "Other");
}

TEST_F(PolicyResolverTest, RelativePolicyFilesAreInTheWorkspace) {
  std::ofstream(dir / "proj" / "team.toml") << "extends = \"strict\"\nserver-name = \"Team\"\n";
  PolicyResolver r("", report);
  r.setRoot((dir / "proj").string());
  r.setSettings(Settings{"team.toml"});
  EXPECT_EQ(r.policyFor(file())->serverName, "Team");
  EXPECT_TRUE(reported.empty());
}

TEST_F(PolicyResolverTest, AnUnreadablePolicyIsReportedAndSkipped) {
  PolicyResolver r("", report);
  r.setSettings(Settings{"no-such-policy"});
  EXPECT_EQ(r.policyFor(file())->serverName, "Lab");
  ASSERT_EQ(reported.size(), 1u);
  EXPECT_NE(reported[0].find("no-such-policy"), std::string::npos);
  // A broken pyproject.toml falls back to the default.
  std::ofstream(dir / "proj" / "pyproject.toml") << "[tool.ivc]\nallow-isolate = \"maybe\"\n";
  r.setSettings(Settings{std::nullopt});
  EXPECT_EQ(r.policyFor(file())->name, "ndif");
  EXPECT_EQ(reported.size(), 2u);
}

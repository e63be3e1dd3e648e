//===- Audit.cpp - Spawning `ivc-worker --audit` and reading its verdict --===//
//
// The audit process runs no user code, so its report is trusted; the host
// still checks it adds up (one "refused" line per canary, a summary that
// agrees, exit status 0) rather than trusting the exit status alone.
//
//===----------------------------------------------------------------------===//
#include "ivc/runtime/host/Audit.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ivc::runtime {

std::string defaultWorkerPath() {
  if (const char *env = std::getenv("IVC_WORKER"); env && *env)
    return env;
  return IVC_DEFAULT_WORKER_PATH;
}

AuditReport runAudit(const WorkerOptions &options, int64_t timeoutMs, bool allowJit) {
  AuditReport report;
  Deadline deadline = Deadline::afterMs(timeoutMs);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    report.error = "pipe2 failed";
    return report;
  }
  UniqueFd readEnd(fds[0]), writeEnd(fds[1]);
  std::vector<std::string> argv = workerArgv(options, false);
  argv.push_back("--audit");
  if (allowJit)
    argv.push_back("--allow-jit");
  Result<pid_t> pid = spawnProcess(argv, -1, options.stderrFd, writeEnd.get());
  writeEnd.reset();
  if (!pid) {
    report.error = pid.error().message;
    return report;
  }
  std::string out;
  bool timedOut = false;
  for (;;) {
    struct pollfd p = {readEnd.get(), POLLIN, 0};
    int n = ::poll(&p, 1, deadline.pollTimeoutMs());
    if (n < 0 && errno == EINTR)
      continue;
    if (n == 0) {
      timedOut = true;
      break;
    }
    char buf[4096];
    ssize_t r = ::read(readEnd.get(), buf, sizeof buf);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      break;
    out.append(buf, static_cast<size_t>(r));
    if (out.size() > (1u << 20))
      break;
  }
  if (timedOut)
    ::killpg(*pid, SIGKILL);
  int status = 0;
  while (::waitpid(*pid, &status, 0) < 0 && errno == EINTR) {
  }
  size_t start = 0;
  while (start < out.size()) {
    size_t end = out.find('\n', start);
    if (end == std::string::npos)
      end = out.size();
    report.lines.push_back(out.substr(start, end - start));
    start = end + 1;
  }
  unsigned failed = 0;
  for (const std::string &l : report.lines) {
    if (l.rfind("refused ", 0) == 0)
      ++report.refused, ++report.total;
    else if (l.rfind("FAILED ", 0) == 0)
      ++failed, ++report.total;
  }
  std::string summary = "ivc audit: " + std::to_string(report.refused) + " of " +
                        std::to_string(report.total) + " canaries refused";
  bool summaryAgrees = !report.lines.empty() && report.lines.back() == summary;
  if (timedOut)
    report.error = "the audit did not finish before its deadline";
  else if (!WIFEXITED(status))
    report.error = "the audit process was killed by signal " + std::to_string(WTERMSIG(status));
  else if (report.total == 0 || !summaryAgrees)
    report.error = "the audit process printed no complete report (exit status " +
                   std::to_string(WEXITSTATUS(status)) + ")";
  report.passed = report.error.empty() && failed == 0 && WEXITSTATUS(status) == 0;
  return report;
}

} // namespace ivc::runtime

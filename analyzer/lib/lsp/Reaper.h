//===- Reaper.h - Frees superseded analyses off the critical path --------===//
//
// Freeing the analysis of a 5,000-line file (its IR, scopes, values) takes
// a noticeable share of an analysis. The worker hands superseded results to
// this thread instead of freeing them before it can start the next edit.
//
//===----------------------------------------------------------------------===//
#ifndef IVC_LIB_LSP_REAPER_H
#define IVC_LIB_LSP_REAPER_H

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace ivc::lsp {

class Reaper {
public:
  Reaper();
  /// Frees what is left, then joins the thread.
  ~Reaper();
  Reaper(const Reaper &) = delete;
  Reaper &operator=(const Reaper &) = delete;

  /// Drops `p` on the reaper's thread (the object is freed there if this was
  /// its last owner).
  void bury(std::shared_ptr<const void> p);

private:
  void run();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::shared_ptr<const void>> graves_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ivc::lsp

#endif

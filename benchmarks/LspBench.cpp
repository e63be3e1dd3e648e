//===- LspBench.cpp - Latency of live diagnostics while typing ----------===//
//
//   ivc-bench-lsp [LINES] [EDITS]        (defaults: 5000 lines, 400 edits)
//
// Generates a realistic intervention file of LINES lines with many trace
// regions, opens it in an in-process ivc language server and replays EDITS
// small incremental edits: a statement typed character by character into a
// trace body and deleted again, at places spread over the file (which makes
// transient syntax errors, as real typing does). Each edit is sent once the
// diagnostics of the previous one are published; its latency is the time
// from handing the didChange to the server to the moment the server has
// serialized the publishDiagnostics of that version.
//
// Baselines measured in the same run: the bare tree-sitter parse of the file,
// and a from-scratch analysis (what `ivc check` does for it).
// Goal (issue: language server): median under 10 ms, p99 under 30 ms.
//
//===----------------------------------------------------------------------===//
#include "Corpus.h"

#include "ivc/engine/Engine.h"
#include "ivc/lsp/Server.h"


#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>

using namespace ivc;
using Clock = std::chrono::steady_clock;

namespace {

// One block of a realistic file: the patterns of examples/ and of NDIF
// tutorials (steering, logit lens, patching with invokes, attribution with
// backward, sessions), plus the mistakes the server exists to catch.
std::string block(unsigned i) {
  std::string n = std::to_string(i), layer = std::to_string(i % 12);
  switch (i % 6) {
  case 0:
    return "def add_direction_" + n + "(hidden, direction, scale):\n"
           "    return hidden + scale * direction\n\n\n"
           "with model.trace(\"The weather today is\") as tracer:\n"
           "    hidden = model.transformer.h[" + layer + "].output[0]\n"
           "    model.transformer.h[" + layer + "].output[0][:] = add_direction_" + n +
           "(hidden, steering, 0.5)\n"
           "    logits_" + n + " = model.lm_head.output.save()\n\n";
  case 1:
    return "probs_" + n + " = []\n"
           "with model.trace(prompt) as tracer:\n"
           "    for layer in model.transformer.h:\n"
           "        hidden = layer.output[0]\n"
           "        logits = model.lm_head(model.transformer.ln_f(hidden))\n"
           "        probs_" + n + ".append(logits.softmax(dim=-1).save())\n\n";
  case 2:
    return "with model.trace() as tracer:\n"
           "    with tracer.invoke(\"The Eiffel Tower is in\"):\n"
           "        clean_" + n + " = model.transformer.h[" + layer + "].output[0].save()\n"
           "    with tracer.invoke(\"The Colosseum is in\"):\n"
           "        model.transformer.h[" + layer + "].output[0][:, -1] = clean_" + n +
           "[:, -1]\n"
           "        patched_" + n + " = model.lm_head.output[:, -1].save()\n\n";
  case 3:
    return "with model.trace(prompt) as tracer:\n"
           "    acts_" + n + " = model.transformer.h[" + layer + "].output[0]\n"
           "    acts_" + n + ".retain_grad()\n"
           "    loss = model.lm_head.output[:, -1, target].sum()\n"
           "    loss.backward()\n"
           "    grads_" + n + " = acts_" + n + ".grad.save()\n\n";
  case 4:
    return "with model.trace(prompt) as tracer:\n"
           "    steps = 0\n"
           "    while steps < 4:\n"
           "        steps += 1\n"
           "    out_" + n + " = model.transformer.h[" + layer + "].mlp.output.save()\n\n";
  default:
    return "with model.trace(prompt) as tracer:\n"
           "    import os\n"
           "    os.environ[\"RUN_" + n + "\"] = \"1\"\n"
           "    mean_" + n + " = model.transformer.h[" + layer +
           "].attn.output[0].mean(dim=1).save()\n\n";
  }
}

std::string generateFile(unsigned lines, std::vector<uint32_t> &typingLines) {
  std::string text = "\"\"\"Generated intervention notebook export (ivc-bench-lsp).\"\"\"\n"
                     "import torch\n"
                     "from nnsight import LanguageModel\n\n"
                     "model = LanguageModel(\"openai-community/gpt2\", device_map=\"auto\")\n"
                     "steering = torch.randn(768) * 4.0\n"
                     "prompt = \"The Eiffel Tower is in the city of\"\n"
                     "target = 6342\n\n";
  unsigned count = 9;
  for (unsigned i = 0; count < lines; ++i) {
    std::string b = block(i);
    // Typing happens at the end of the first body line of a trace.
    size_t with = b.find("with model.trace");
    size_t bodyLine = b.find('\n', with) + 1;
    typingLines.push_back(count + unsigned(std::count(b.begin(), b.begin() + bodyLine, '\n')));
    text += b;
    count += unsigned(std::count(b.begin(), b.end(), '\n'));
  }
  return text;
}

// Captures what the server sends: when each version's diagnostics were
// serialized, as the stdio transport would serialize them.
class CaptureTransport : public lsp::Transport {
public:
  ReadStatus read(std::string &, std::string &) override { return ReadStatus::Eof; }
  void write(const llvm::json::Value &message) override {
    std::string wire = lsp::serialize(message); // as a stdio transport would
    record(Clock::now(), message);
  }
  void writeText(std::string json) override {
    // The server has serialized the message: it is on the wire now. Parsing
    // it to find its version is the benchmark's cost, after the timestamp.
    Clock::time_point now = Clock::now();
    llvm::Expected<llvm::json::Value> message = llvm::json::parse(json);
    if (!message) {
      llvm::consumeError(message.takeError());
      return;
    }
    record(now, *message);
  }
  void record(Clock::time_point now, const llvm::json::Value &message) {
    const llvm::json::Object *o = message.getAsObject();
    std::optional<llvm::StringRef> method = o ? o->getString("method") : std::nullopt;
    if (!method || *method != "textDocument/publishDiagnostics")
      return;
    const llvm::json::Object *params = o->getObject("params");
    std::lock_guard<std::mutex> lock(mutex_);
    published_ = params->getInteger("version").value_or(-1);
    diagnostics_ = params->getArray("diagnostics")->size();
    at_ = now;
    cv_.notify_all();
  }
  /// Waits for the diagnostics of `version`; returns when they were sent.
  Clock::time_point waitFor(int64_t version, size_t &diagnostics) {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [&] { return published_ == version; });
    diagnostics = diagnostics_;
    return at_;
  }

private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int64_t published_ = -1;
  size_t diagnostics_ = 0;
  Clock::time_point at_;
};

std::string jsonString(const std::string &s) {
  std::string out;
  llvm::raw_string_ostream(out) << llvm::json::Value(s);
  return out;
}

std::string didChange(int64_t version, uint32_t line, uint32_t character, uint32_t endLine,
                      uint32_t endCharacter, const std::string &insert) {
  auto n = [](auto v) { return std::to_string(v); };
  return R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{)"
         R"("textDocument":{"uri":"file:///bench/notebook.py","version":)" + n(version) +
         R"(},"contentChanges":[{"range":{"start":{"line":)" + n(line) +
         R"(,"character":)" + n(character) + R"(},"end":{"line":)" + n(endLine) +
         R"(,"character":)" + n(endCharacter) + R"(}},"text":)" + jsonString(insert) + "}]}}";
}

// CPU time of the whole process (every thread): unlike wall time, it does
// not grow when a shared machine gives the server less of a core.
double cpuMillis() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  size_t k = std::min(v.size() - 1, size_t(p * double(v.size() - 1) + 0.5));
  return v[k];
}

} // namespace

int main(int argc, char **argv) {
  unsigned lines = argc > 1 ? unsigned(std::atoi(argv[1])) : 5000;
  unsigned edits = argc > 2 ? unsigned(std::atoi(argv[2])) : 400;
  std::vector<uint32_t> typingLines;
  std::string text = generateFile(lines, typingLines);
  auto source = std::make_shared<SourceFile>("/bench/notebook.py", text);

  // Baselines.
  Frontend frontend;
  Engine engine;
  AnalysisOptions options;
  size_t mediators = 0, diagnostics = 0;
  auto parseOnly = [&] { frontend.parseTree(text); };
  auto fromScratch = [&] {
    auto a = engine.analyze(source, options);
    mediators = 0;
    for (auto &t : a->facts)
      mediators += t.size();
    diagnostics = a->diagnostics.size();
  };
  fromScratch();
  std::vector<double> base = bench::medianSeconds({parseOnly, fromScratch}, 9);

  CaptureTransport transport;
  lsp::ServerOptions serverOptions;
  lsp::Server server(transport, serverOptions);
  server.handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}})");
  server.handle(R"({"jsonrpc":"2.0","method":"initialized","params":{}})");
  server.handle(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":)"
                R"({"uri":"file:///bench/notebook.py","languageId":"python","version":1,"text":)" +
                jsonString(text) + "}}}");
  size_t published = 0;
  transport.waitFor(1, published);

  // At a trace's first body line: Enter (the editor auto-indents: one edit
  // "\n    "), type `y = hidden * 2` one character per edit, delete it
  // again with backspace, then delete the empty line. Then on to another
  // trace, far from the last one.
  const std::string statement = "y = hidden * 2";
  std::vector<double> latencies, cpu;
  int64_t version = 1;
  // Latencies by kind of edit: typing the first character on a blank line
  // (or deleting the last one, or the line) changes the line's indentation
  // tokens, and tree-sitter's Python scanner then re-lexes the rest of the
  // file; other keystrokes re-parse a few nodes.
  std::map<std::string, std::vector<double>> byKind;
  auto send = [&](uint32_t line, uint32_t character, uint32_t endLine, uint32_t endCharacter,
                  const std::string &insert) {
    std::string msg = didChange(++version, line, character, endLine, endCharacter, insert);
    double cpuStart = cpuMillis();
    Clock::time_point start = Clock::now();
    server.handle(msg);
    Clock::time_point done = transport.waitFor(version, published);
    latencies.push_back(std::chrono::duration<double, std::milli>(done - start).count());
    cpu.push_back(cpuMillis() - cpuStart);
    std::string kind = insert == "\n    "                    ? "enter (auto-indent)"
                       : endLine != line                    ? "delete the line"
                       : !insert.empty() && character == 4  ? "first character of a line"
                       : insert.empty() && character == 4   ? "delete the last character"
                       : !insert.empty()                    ? "type a character"
                                                            : "backspace";
    byKind[kind].push_back(latencies.back());
  };
  for (size_t site = 0; latencies.size() < edits; ++site) {
    // Lines above `line` are unchanged between sessions: each ends where it began.
    uint32_t line = typingLines[(site * 37) % typingLines.size()];
    uint32_t end = uint32_t(source->lineText(line).size());
    send(line, end, line, end, "\n    ");
    for (size_t k = 0; k < statement.size() && latencies.size() < edits; ++k)
      send(line + 1, uint32_t(4 + k), line + 1, uint32_t(4 + k), statement.substr(k, 1));
    for (size_t k = statement.size(); k > 0 && latencies.size() < edits; --k)
      send(line + 1, uint32_t(4 + k - 1), line + 1, uint32_t(4 + k), "");
    if (latencies.size() < edits)
      send(line, end, line + 1, 4, "");
  }
  server.handle(R"({"jsonrpc":"2.0","id":2,"method":"shutdown"})");

  double median = percentile(latencies, 0.5), p99 = percentile(latencies, 0.99);
  std::printf("file: %u lines, %zu bytes, %zu traces, %zu mediators, %zu diagnostics\n",
              unsigned(source->lineCount()), text.size(), typingLines.size(), mediators,
              diagnostics);
  std::printf("baselines (median of 9):\n");
  std::printf("  %-34s %8.2f ms\n", "tree-sitter parse, from scratch", base[0] * 1e3);
  std::printf("  %-34s %8.2f ms  (%.2fx the parse)\n", "analysis, from scratch", base[1] * 1e3,
              base[1] / base[0]);
  std::printf("didChange -> publishDiagnostics over %zu edits:\n", latencies.size());
  std::printf("  %-34s %8.2f ms  (%.2fx the from-scratch analysis)\n", "median", median,
              median / (base[1] * 1e3));
  std::printf("  %-34s %8.2f ms  (%.2fx the from-scratch analysis)\n", "p99", p99,
              p99 / (base[1] * 1e3));
  std::printf("  %-34s %8.2f ms\n", "max", percentile(latencies, 1.0));
  std::printf("  %-34s %8.2f ms  (CPU of all threads per edit, median)\n", "cpu", percentile(cpu, 0.5));
  std::printf("median by kind of edit:\n");
  for (auto &[kind, v] : byKind)
    std::printf("  %-34s %8.2f ms  (%zu edits)\n", kind.c_str(), percentile(v, 0.5), v.size());
  std::printf("goal: median < 10 ms (%s), p99 < 30 ms (%s)\n", median < 10 ? "met" : "MISSED",
              p99 < 30 ? "met" : "MISSED");
  return 0;
}

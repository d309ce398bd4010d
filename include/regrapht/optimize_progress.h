// Optimize's signs of life (README "The main job"), for a program that runs
// Optimize in front of a person: the status line that says, from the first
// seconds on, what the run is doing (the phase, the model's tokens and
// tokens/s while it generates, the candidates checked, the best so far, the
// time of the limit); before the search, the estimate of its duration from
// this model's measured speed on this machine; after it, the speeds it
// measured, kept for the next estimate (docs/llm.md "Speed and estimates").
//
//   OptimizeProgress live(options);        // options.out = stderr
//   live.Start();
//   request.on_event = [&](const OptimizeEvent& e) {
//     if (e.kind == OptimizeEvent::Kind::kSearchStart) live.Print(stdout, live.Estimate(llm,
//     e.model).line); live.OnEvent(e);
//   };
//   auto report = Optimize(request);
//   live.Stop();
//   if (report.ok()) live.Record(*report);
//
// The library prints nothing on stdout itself: the status line goes to
// options.out, and Print prints the caller's own lines without tearing it.
//
// Thread safety: OnEvent and Print may be called from any thread (the
// search's); the rest from one thread.
#pragma once

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "regrapht/llm.h"
#include "regrapht/optimize.h"
#include "regrapht/search.h"

namespace regrapht {

struct OptimizeProgressOptions {
  std::FILE* out = stderr;  // the status line; null: none (Print still prints)
  bool tty = false;  // redraw one line in place (a terminal); else a plain line every interval_s
  double interval_s = 5;  // between lines when nothing else happens
  // The search as asked: generations (0: no budget), tokens of a reply, the
  // time limit in seconds (0: none).
  int budget = 0;
  int max_tokens = 0;
  double max_seconds = 0;
  // Estimate: with no speed of the model cached for this machine, measure
  // it (about 15 s at most, its reply shaped by `shape` as the search's
  // are). False for a model behind an endpoint: its speed is not this
  // machine's to measure.
  bool measure = true;
  ShapeOptions shape;
  // Checks run in the CPU emulator (check times are kept per mode).
  bool emulate = false;
  // Set (Ctrl-C): ends the measurement early. May be null.
  const std::atomic<bool>* cancel = nullptr;
  // The speed cache; empty: CacheDir() / "speed.json".
  std::filesystem::path speed_cache;
};

// What Estimate found.
struct OptimizeEstimate {
  // One line with its newline: "estimate   up to 4m10s for 8 generations
  // here: each ..." or "estimate   not known yet: ...".
  std::string line;
  // The upper bound as the line says it ("4m10s"); empty when not known.
  std::string duration;
  // Over 30 minutes: worth a warning (which options bound the search is
  // the program's to say).
  bool long_search = false;
};

class OptimizeProgress {
 public:
  explicit OptimizeProgress(OptimizeProgressOptions options);
  ~OptimizeProgress();  // Stop()
  OptimizeProgress(const OptimizeProgress&) = delete;
  OptimizeProgress& operator=(const OptimizeProgress&) = delete;

  // Prints the status line and starts redrawing it. Idempotent.
  void Start();
  // Stops redrawing and clears the line on a terminal. Idempotent.
  void Stop();
  // Prints `text` (its own newlines included) to `f`, never in the middle
  // of the status line.
  void Print(std::FILE* f, const std::string& text);
  // Follows the run: pass every event of OptimizeRequest::on_event.
  void OnEvent(const OptimizeEvent& e);
  // Shows `phase` ("measuring the model's speed") until the next event.
  void SetPhase(const std::string& phase);

  // Before the search: the estimate of its duration from the speeds cached
  // for `model_id` on this machine; with none and options.measure, a short
  // measurement of `model` first (may be null: none), whose figures are
  // cached. Never fails: an unknown speed is said in the line.
  OptimizeEstimate Estimate(LlmBackend* model, const std::string& model_id);
  // After the search: what it measured (generation speed, prompt tokens,
  // check times) into the speed cache; a cache that cannot be written is a
  // warning in the log.
  void Record(const OptimizeReport& report);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The progress line of one finished search step (OptimizeEvent::kSearchStep
// with a verdict): generation / budget, iteration, action, verdict, the best
// speedup so far, the reply's tokens and, for a failed step, the first line
// of why (at most 100 characters). No newline.
std::string OptimizeStepLine(const SearchEvent& step, int budget);

}  // namespace regrapht

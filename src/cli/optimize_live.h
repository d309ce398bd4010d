// optimize's signs of life (README "The main job"): the status line that
// says, from the first seconds on, what the run is doing (the phase, the
// model's tokens and tokens/s while it generates, the candidates checked,
// the best so far, the time of the limit); the estimate of the search's
// duration, from this model's measured speed on this machine, printed
// before the search with a warning when it would take more than 30
// minutes; and the speeds this run measured, kept for the next estimate
// (llm/speed.h).
//
// Thread safety: OnEvent may be called from the search's threads; the rest
// from the command's.
#pragma once

#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cli/search_flags.h"
#include "core/progress.h"
#include "llm/speed.h"
#include "regrapht/optimize.h"
#include "search/progress_text.h"

namespace regrapht::cli {

class OptimizeLive {
 public:
  // Searches of `flags`; `quiet`: no status line; `emulate`: checks run in
  // the emulator (the speed cache keeps check times per mode). The status
  // line goes to stderr: one line redrawn on a terminal, a plain line every
  // 5 s otherwise.
  OptimizeLive(const SearchFlags& flags, bool quiet, bool emulate);
  ~OptimizeLive();

  void Start();
  void Stop();
  // Prints `text` (with its newline) to `f`, never in the middle of the status line.
  void Print(std::FILE* f, const std::string& text);
  void OnEvent(const OptimizeEvent& e);
  void SetPhase(const std::string& phase);

  // Before the search: the estimate of its duration from the speeds cached
  // for `model_id` on this machine; for the embedded model with none cached,
  // a short measurement of `model` first (its figures are cached). Prints the
  // estimate and, over 30 minutes, a warning.
  void Estimate(LlmBackend* model, const std::string& model_id);
  // After the search: what it measured (generation speed, prompt tokens,
  // check times) into the speed cache.
  void Record(const OptimizeReport& report);

 private:
  std::string Render();
  std::string CheckMode() const { return emulate_ ? "emulate" : "compile-or-gpu"; }

  const SearchFlags& flags_;
  bool quiet_, emulate_;
  double start_s_;
  llm::SpeedCache cache_;
  std::string machine_;
  std::unique_ptr<StatusLine> line_;
  std::mutex mu_;  // guards the state below
  search::RunStatus status_;
  int generations_done_ = 0;
  int checks_begun_ = 0;              // kChecking events
  bool checking_ = false;             // one is in progress
  int best_rank_ = 0;                 // of the best so far: 3 timed, 2 correct, 1 built, 0 none
  std::vector<double> rates_;         // tokens/s of each finished generation of the model
  GenerationProgress last_progress_;  // of the generation in progress
};

}  // namespace regrapht::cli

// Measured speeds, cached per model and machine, so that optimize can say
// before a search how long it may take (docs/llm.md "Speed and estimates").
//
//   SpeedCache cache(CacheDir() / "speed.json");
//   auto s = cache.FindModel(llm->ModelId(), MachineId());
//   SearchEstimate e = EstimateSearch(*s, cache.FindCheck(MachineId(), "emulate"), 8, 512);
//
// One JSON file holds the figures: per model and machine, prompt and
// generation tokens/s (bench-llm's medians, optimize's quick probe, and the
// generation speed optimize saw in its searches) and the prompt tokens a
// search step took; per machine and check mode ("gpu", "emulate",
// "compile"), the median seconds one candidate's check took.
//
// Thread safety: none; concurrent writers to one file keep one of the
// writes (each write is atomic: readers never see a torn file).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/fs.h"
#include "regrapht/status.h"

namespace regrapht::llm {

struct ModelSpeed {
  std::string model;                  // LlmBackend::ModelId()
  std::string machine;                // MachineId()
  double prompt_tok_s = 0;            // prompt evaluation; 0: not measured
  double generate_tok_s = 0;          // generation (bench-llm or the probe); 0: not measured
  double search_generate_tok_s = 0;   // generation in optimize's searches (grammar on); 0: none yet
  double prompt_tokens = 0;           // prompt tokens of one search step, mean; 0: none yet
  std::string measured_by;            // "bench-llm", "optimize (probe)", "optimize"
  std::string measured_at;            // ISO 8601 UTC
};

struct CheckSpeed {
  std::string machine, mode;  // mode: "gpu", "emulate", "compile"
  double seconds = 0;         // median of the last run's checks
  int count = 0;              // how many checks that median is of
  std::string measured_at;
};

// What speed depends on: "host / CPU model / N CPUs".
std::string MachineId();

// The median of measured values (the mean of the middle two for an even
// count); 0 for none.
double Median(std::vector<double> values);

class SpeedCache {
 public:
  explicit SpeedCache(fs::path path) : path_(std::move(path)) {}

  // The figures for `model` on `machine`; nullopt when there are none (an
  // unreadable file counts as empty).
  std::optional<ModelSpeed> FindModel(const std::string& model, const std::string& machine) const;
  std::optional<CheckSpeed> FindCheck(const std::string& machine, const std::string& mode) const;

  // Adds the figures, or merges them into the entry of the same model and
  // machine: fields that are 0 or empty in `speed` keep their old values.
  // Writes the file atomically.
  Status PutModel(const ModelSpeed& speed);
  Status PutCheck(const CheckSpeed& check);

  const fs::path& path() const { return path_; }

 private:
  struct Contents {
    std::vector<ModelSpeed> models;
    std::vector<CheckSpeed> checks;
  };
  Contents Load() const;
  Status Save(const Contents& c) const;
  fs::path path_;
};

// How long a search of `generations` may take: each generation a full
// step prompt (speed.prompt_tokens, else kDefaultPromptTokens) at
// prompt_tok_s and a reply of `max_tokens` at the search's generation speed
// (else the measured one), plus one check (when `check` is known). An upper
// bound for the model's part: replies may end before max_tokens.
// REQUIRES: some generation speed > 0.
struct SearchEstimate {
  double seconds = 0;            // everything estimated
  double per_generation_s = 0;   // the model's part of one generation
  double check_s = 0;            // one check; 0: not known (not in `seconds`)
  double generate_tok_s = 0, prompt_tok_s = 0, prompt_tokens = 0;
};
// The prompt of a search step on the shipped graph (system prompt, a step
// with one example, the function), until a search here measured its own:
// saxpy's first two steps took 1,420 and 1,081 prompt tokens with the
// default model (2026-12-04).
inline constexpr double kDefaultPromptTokens = 1400;
SearchEstimate EstimateSearch(const ModelSpeed& speed, const std::optional<CheckSpeed>& check, int generations,
                              int max_tokens);

// The current time as ISO 8601 UTC ("2026-12-04T20:31:05Z").
std::string UtcNowIso();

}  // namespace regrapht::llm

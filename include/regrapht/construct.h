// Building reasoning graphs, as `regrapht graph import` and `graph build` do
// (docs/graph.md, docs/trajectory-format.md):
//   - ImportGraph: authored trajectory folders relabelled onto the
//     taxonomy, optionally checked step by step with the harness (every step
//     built in parallel first, then verified one at a time), and merged;
//   - BuildGraphWithModel: trajectories asked of a large model for each
//     kernel of a list, relabelled (the taxonomy's names, then the model),
//     verified, merged in list order, checkpointed and resumable.
// Neither writes the graph: the caller saves the result (SaveGraph).
//
//   GraphImportOptions o;
//   o.dirs = {"data/trajectories"};
//   Result<GraphImportReport> r = ImportGraph(o);
//   if (r.ok() && r->failed == 0) SaveGraph(r->graph, "g.json");
//
// Inside the library: construct/ (step verification, prebuild, the build)
// and graph/trajectory_import.h.
//
// Thread safety: each call is independent; a build's `llm` must allow
// concurrent calls when jobs > 1 (every backend does).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "regrapht/graph.h"
#include "regrapht/llm.h"
#include "regrapht/status.h"
#include "regrapht/verify.h"

namespace regrapht {

// How each step of a trajectory is checked with the harness before it is
// merged; steps from the first failing one are cut.
enum class StepCheckLevel {
  kNone,     // not checked: the files' own records are kept
  kCompile,  // device code compiled for every architecture of the VerifyOptions
  kFull,     // correctness and speedup (on a GPU, or as the VerifyOptions say)
};

// The relabelling shared by import and build.
struct GraphRelabelOptions {
  std::filesystem::path taxonomy;  // empty: the built-in data/taxonomy.json
  bool reject_unknown = false;  // a technique outside the taxonomy rejects its trajectory (else: a
                                // new node flagged for review)
  double threshold = 0.6;       // token-overlap threshold of the deterministic relabel
};

// ---- Import ------------------------------------------------------------------

struct GraphImportOptions {
  std::vector<std::filesystem::path> dirs;  // trajectory folders, or folders of them
  std::filesystem::path into;  // start from this graph (native or official); empty: an empty graph
  GraphRelabelOptions relabel;
  StepCheckLevel check = StepCheckLevel::kNone;
  VerifyOptions verify;  // the harness for `check` (its sandbox and architectures)
  int jobs = 0;          // steps built at once before verifying; 0: every core
  // Write each step's fresh verification record back into its
  // trajectory.json (with a check only).
  bool write_records = false;
};

struct GraphImportReport {
  Graph graph;  // `into` (or empty) with every merged trajectory
  size_t trajectories = 0, imported = 0, failed = 0, cut = 0;
  size_t examples_added = 0, examples_already_present = 0;
  // What the import did, in order, for a person to read: what reading an
  // official `into` graph repaired, the parallel build of a check ("built 12
  // steps with 4 jobs"), then for each trajectory "error: ...", "K: cut
  // before step 3 (did not compile)" and each label not given verbatim
  // ("K: steps[1] \"smem\": matched ... by stemmed ..."), and last "skipped
  // DIR (no trajectory.json)".
  std::vector<std::string> notes;
  std::vector<std::string> verify_log;  // with a check: one line per step verified
  size_t records_written = 0;           // trajectory.json files rewritten (write_records)
};

// Imports every trajectory under `dirs`. A trajectory that fails (a file
// that does not parse, a rejected label: named with file and field) is
// counted in `failed` with its note; a Status means the import could not run
// (a taxonomy or `into` graph that does not load, the harness failing, a
// record that could not be written).
Result<GraphImportReport> ImportGraph(const GraphImportOptions& options);

// ---- Build with a large model -------------------------------------------------

struct GraphBuildRequest {
  // A text file listing problem or trajectory folders, one per line ('#'
  // comments; relative paths against the list's folder).
  std::filesystem::path kernels;
  // Where the build checkpoints ("<graph file>.state"): REQUIRED.
  std::filesystem::path state_path;
  std::filesystem::path into;  // start from this graph; empty: an empty graph
  LlmBackend* llm = nullptr;   // REQUIRED: the large model (not owned)
  // Prompt templates (PromptLibrary's trajectory_system.txt and
  // trajectory_user.txt, and relabel_system.txt rendered). REQUIRED.
  std::string system_template, user_template, relabel_system_prompt;
  GraphRelabelOptions relabel;
  StepCheckLevel check = StepCheckLevel::kCompile;
  VerifyOptions verify;
  // Sampling of the large model (no top-k); each kernel's request gets its
  // own seed from `seed`.
  float temperature = 0.7f, top_p = 0.9f;
  int max_tokens = 8192;
  uint64_t seed = 0;
  int jobs = 2;  // kernels in flight
  int checkpoint_every = 5;
  int max_endpoint_errors_in_a_row = 3;  // then stop, resumably; 0: never
  bool resume = false;                   // continue the build in state_path
  std::filesystem::path
      save_trajectories;  // write each merged trajectory here (authored layout); empty: no
  // Settings that must match on resume, as text (a resumed build with other
  // settings is refused).
  std::string config;
  bool show_progress = true;  // a progress line on stderr (kernels done, accepted / cut / rejected)
  const std::atomic<bool>* cancel = nullptr;  // polled between kernels; may be null
  // Called with notes as the build goes, before the first request: what
  // reading an official `into` graph repaired, then "building from 12
  // kernels with MODEL (2 in flight, verify compile)". May be empty.
  std::function<void(const std::string&)> on_note;
};

struct GraphBuildResult {
  Graph graph;
  size_t kernels = 0;    // finished (the state file's included)
  size_t resumed = 0;    // taken from the state file
  bool stopped = false;  // did not reach the end of the list: the state file holds what finished
  std::string stop_reason;
  std::vector<std::string>
      label_notes;  // each label not given verbatim ("K: steps[1] \"smem\": ...")
  std::vector<std::string> verify_log;
  // One row per kernel (outcome, steps proposed and kept, why), totals by
  // outcome and rejection kind, and the graph's size.
  std::string summary;
};

// Runs the build. A Status means it could not run or failed midway: bad
// settings (FailedPrecondition: a state file without `resume`, or with
// other settings), a list or graph that does not load; a failure after work
// was checkpointed names the state file and says to rerun with --resume. A
// stopped build (endpoint errors in a row, `cancel`) is not an error: see
// `stopped`.
Result<GraphBuildResult> BuildGraphWithModel(const GraphBuildRequest& request);

}  // namespace regrapht

// Building a reasoning graph with a large model (the paper's Algorithm 1,
// construct.py in the official code), with the verification the paper's
// reviewers describe and the official code lacks:
//
//   for each kernel in the list:
//     1. Reason:   ask the large model for a step-by-step trajectory (a JSON
//                  list of {think, method, detail, code}) with the prompt
//                  templates data/prompts/trajectory_{system,user}.txt
//     2. Check:    every step names a method and holds code that defines the
//                  function and changes something; cut at the first that
//                  does not
//     3. Relabel:  taxonomy names first, the model for what they cannot place
//     4. Verify:   each kept step with a StepVerifier; cut at the first failure
//     5. Merge:    into the graph, in kernel-list order
//
// Steps 1-4 run for up to `jobs` kernels at once; step 5 runs on the calling
// thread in list order, whatever order the kernels finish in, so the graph
// does not depend on timing. Every `checkpoint_every` kernels the graph and
// each finished kernel's outcome are written atomically to a state file; a
// resumed build skips the kernels it records and ends with the same graph as
// an uninterrupted one.
//
// What goes wrong with one kernel (no code in the reply, a label the policy
// rejects, a first step that does not compile, the endpoint failing after
// its retries) is that kernel's outcome, not an error. BuildGraph fails only
// when the tool cannot go on: a prompt template that does not render, a
// verifier that cannot run, a state file that cannot be read or written.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "graph/relabel.h"
#include "graph/taxonomy.h"
#include "graph/trajectory.h"
#include "regrapht/graph.h"
#include "regrapht/llm.h"

namespace regrapht::construct {

// One kernel of the list: a problem or trajectory folder (problem.json +
// reference.cpp; description.md is optional).
struct KernelEntry {
  fs::path dir;            // as resolved (relative entries against the list's folder)
  std::string kernel_id;   // the folder name
  std::string function;    // from problem.json
  std::string signature;   // "void saxpy(int n, float a, const float* x, float* y)"
  std::string reference;   // reference.cpp
  std::string description; // description.md, "" if absent
  int line = 0;            // where the list names it
};

// Reads a kernel list: one folder per line; blank lines and text after '#'
// are ignored; surrounding whitespace is trimmed; relative paths are resolved
// against the list file's folder. Each folder's problem.json is loaded and
// validated. Errors name the file and line ("kernels.txt:3: ..."), including
// a kernel id (folder name) listed twice.
Result<std::vector<KernelEntry>> ReadKernelList(const fs::path& file);

enum class KernelOutcome {
  kAccepted,  // every step the model proposed was merged
  kCut,       // a prefix was merged; step cut_at failed
  kRejected,  // nothing was merged
};
std::string_view KernelOutcomeName(KernelOutcome outcome);  // "accepted", "cut", "rejected"

enum class RejectKind {
  kNone,
  kEndpoint,   // the model could not be reached (after the backend's retries)
  kNoCode,     // the reply holds no step list with code
  kRelabel,    // the relabeler failed or the policy rejected a label
  kFirstStep,  // the first step failed the checks or verification
  kMerge,      // the merge refused the trajectory (names a graph node wrongly)
};
std::string_view RejectKindName(RejectKind kind);  // "endpoint error", "no code found", ...

struct KernelResult {
  std::string kernel_id;
  fs::path dir;
  KernelOutcome outcome = KernelOutcome::kRejected;
  RejectKind reject = RejectKind::kNone;
  // Rejected: why. Cut: why the first dropped step failed, naming it
  // ("step 3 (loop_unrolling): did not compile").
  std::string reason;
  size_t steps = 0;  // steps the model proposed
  size_t kept = 0;   // steps merged
  size_t cut_at = std::string::npos;  // 0-based index of the first dropped step
  size_t examples_added = 0;
  size_t nodes_added = 0;
  // How each kept step was labelled (not kept in the state file).
  std::vector<LabelDecision> labels;
  bool from_checkpoint = false;  // taken from the state file by a resumed build
};

struct GraphBuildOptions {
  const Taxonomy* taxonomy = nullptr;  // REQUIRED
  LlmBackend* llm = nullptr;           // REQUIRED: the large model
  Relabeler* relabeler = nullptr;      // REQUIRED; called from several threads
  StepVerifier* verifier = nullptr;    // null: steps are not verified; called from several threads
  // Prompt templates. REQUIRED. The system template may use {{signature}};
  // the user template {{function}}, {{signature}}, {{description}}, {{code}}.
  std::string system_template;
  std::string user_template;
  // The paper's construction settings; the request for kernel k uses seed
  // Hash64(k, sampling.seed).
  SamplingParams sampling = [] {
    SamplingParams s;
    s.temperature = 0.7f;
    s.top_p = 0.9f;
    s.top_k = 0;
    s.max_tokens = 8192;
    return s;
  }();
  int jobs = 2;              // kernels in flight
  int checkpoint_every = 5;  // kernels between checkpoints (when state_path is set)
  fs::path state_path;       // "": no checkpoints, no resume
  // Continue from state_path. Without it, an existing state file is an error
  // (it holds a build that has not finished).
  bool resume = false;
  // Settings that must match on resume (model, verification, policy), as
  // text; a resumed build with other settings is refused.
  std::string config;
  // If set, each merged trajectory is written here in the authored layout
  // (docs/trajectory-format.md), ready for `graph import`.
  fs::path save_trajectories;
  // The run stops (with a checkpoint before those kernels, so a resume
  // retries them) after this many endpoint errors in a row.
  int max_endpoint_errors_in_a_row = 3;
  // Polled between kernels: when set, the build stops where it is without a
  // further checkpoint, as if killed. Not owned; may be null.
  const std::atomic<bool>* cancel = nullptr;
  // Called on the calling thread after each kernel is merged (or rejected),
  // in list order, with the count done so far.
  std::function<void(const KernelResult&, size_t done)> on_kernel;
};

struct GraphBuildReport {
  std::vector<KernelResult> kernels;  // in list order; fewer when stopped
  size_t resumed = 0;                 // how many came from the state file
  bool stopped = false;               // did not reach the end of the list
  std::string stop_reason;
  size_t Count(KernelOutcome outcome) const;
};

// Runs the build over `kernels`, merging into `graph` (which may hold a
// starting graph; on resume it is replaced by the state file's).
// REQUIRES: the options marked REQUIRED are set.
Result<GraphBuildReport> BuildGraph(const std::vector<KernelEntry>& kernels,
                                    const GraphBuildOptions& options, Graph* graph);

// The summary: one row per kernel (outcome, steps proposed and kept, why),
// totals by outcome and rejection kind, and the graph's size.
std::string FormatBuildSummary(const GraphBuildReport& report, const Graph& graph);

}  // namespace regrapht::construct

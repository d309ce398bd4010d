// Building a graph from trajectories: read, relabel, verify (optional),
// merge. `regrapht graph import` is a thin wrapper over ImportTrajectories.
#pragma once

#include <vector>

#include "graph/merge.h"
#include "graph/relabel.h"
#include "graph/taxonomy.h"
#include "graph/trajectory.h"
#include "regrapht/graph.h"

namespace regrapht {

struct ImportOptions {
  const Taxonomy* taxonomy = nullptr;  // REQUIRED
  Relabeler* relabeler = nullptr;      // REQUIRED
  // If set, every step is checked and its record replaces the file's.
  StepVerifier* verifier = nullptr;
};

struct ImportedTrajectory {
  fs::path dir;
  std::string kernel_id;
  Status status;                     // OK if merged; otherwise why not (names file and field)
  std::vector<LabelDecision> labels; // one per step, when relabelling ran
  MergeReport merge;                 // when merged
  // The trajectory was cut before this step (0-based) because its
  // verification record says it failed (did not compile, or gave wrong
  // answers on a GPU); npos when nothing was cut.
  size_t cut_at = std::string::npos;
  std::string cut_reason;
};

struct ImportReport {
  std::vector<ImportedTrajectory> items;  // in import order
  std::vector<fs::path> skipped;          // subfolders without trajectory.json
  size_t merged() const;
  size_t failed() const;
};

// Why a step's verification record says it failed ("did not compile",
// "wrong answers on NVIDIA H200"), or "" when it did not fail (no record,
// compiled with correctness unknown, or correct). Steps from the first one
// that failed are never merged.
std::string VerificationFailure(const std::optional<StepVerification>& record);

// Relabels, verifies (if options.verifier) and merges one trajectory. Steps
// from the first one whose verification record (fresh or from the file) says
// it failed are cut: a wrong step is never kept as a good example. A
// rejected label or a merge error is the item's status; non-OK only if the
// relabeler or verifier itself failed.
Result<ImportedTrajectory> ImportTrajectory(Trajectory trajectory, const ImportOptions& options,
                                            Graph* graph);

// Imports every trajectory folder under `roots` (FindTrajectoryDirs order, so
// the graph is reproducible). A bad folder is reported in its item and not
// merged; the others go on. Two folders with the same kernel id: the second
// fails. Non-OK only if a root is missing or the relabeler or verifier failed.
Result<ImportReport> ImportTrajectories(const std::vector<fs::path>& roots,
                                        const ImportOptions& options, Graph* graph);

}  // namespace regrapht

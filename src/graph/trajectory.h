// Optimization trajectories: a sequential function and the steps that turned
// it into CUDA, one technique per step. Merge (merge.h) folds them into the
// graph; this header holds the in-memory form and the reader for authored
// trajectory folders (layout in docs/trajectory-format.md).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/fs.h"
#include "regrapht/graph.h"
#include "regrapht/status.h"

namespace regrapht {

inline constexpr std::string_view kTrajectoryFormatName = "regrapht-trajectory";

struct TrajectoryStep {
  std::string method;        // as written: a technique id or free text
  std::string technique_id;  // set by relabelling; "" if not in the taxonomy
  std::string think;         // why this step
  std::string detail;        // how the technique was applied
  std::string code;          // the complete code after this step
  std::string code_file;     // "step1.cu" when read from a folder; for messages
  std::optional<StepVerification> verification;
};

struct Trajectory {
  std::string kernel_id;          // unique; the folder name
  std::string name;               // the function's name (kept by every step)
  std::string description;        // description.md
  std::string sequential_source;  // reference.cpp: the init state's code
  fs::path dir;                   // the folder it was read from; "" if built in memory
  std::vector<TrajectoryStep> steps;
};

// Reads one trajectory folder:
//   <dir>/problem.json     must exist (validated by the harness, not here)
//   <dir>/reference.cpp    the sequential function
//   <dir>/description.md   short description
//   <dir>/trajectory.json  {"format":"regrapht-trajectory","version":1,"kernel":...,
//                           "function":...,"steps":[{method,think,detail,code,verification?}]}
//   <dir>/<step files>     each a complete CUDA version of the function
// reference.cpp and every step must define `function` (scan::DefinesFunction:
// a definition, not a call or a prototype).
// Errors name the file and field ("k/trajectory.json: steps[1].code: ...").
// Verification records from the file are kept as written, with verifier
// "authored" unless they name one.
Result<Trajectory> ReadTrajectoryDir(const fs::path& dir);

// The trajectory folders under `roots`, in root order and sorted by name
// within a root: a root holding trajectory.json is itself a folder; otherwise
// every immediate, non-hidden subfolder holding one is. Subfolders without
// trajectory.json are appended to *skipped (if given). Fails if a root is
// missing or not a folder.
Result<std::vector<fs::path>> FindTrajectoryDirs(const std::vector<fs::path>& roots,
                                                 std::vector<fs::path>* skipped = nullptr);

// Hook for checking each step's code while importing (compile, run the
// harness, time it). The import calls Verify for every step and keeps the
// returned record instead of the file's.
class StepVerifier {
 public:
  virtual ~StepVerifier() = default;
  // Checks step `index` of `trajectory` (its problem spec is
  // trajectory.dir / "problem.json"). A step that fails to compile or gives
  // wrong answers is an OK result saying so; a non-OK Status means the
  // verifier itself could not run (nvcc missing, ...), which stops the import.
  virtual Result<StepVerification> Verify(const Trajectory& trajectory, size_t index) = 0;
};

bool IsValidUtf8(std::string_view text);

}  // namespace regrapht

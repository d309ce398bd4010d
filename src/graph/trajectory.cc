#include "graph/trajectory.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/hash.h"
#include "core/json_util.h"
#include "core/scanner.h"
#include "core/strings.h"
#include "graph/graph_json.h"

namespace regrapht {
namespace {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), IsIdentChar);
}

// Files of a trajectory are read only from inside its folder: a link that
// leads out of it (into someone's home, say) is refused, never copied into a
// graph.
Status InsideFolder(const fs::path& path, const fs::path& dir) {
  std::error_code e1, e2;
  fs::path real = fs::weakly_canonical(path, e1);
  fs::path root = fs::weakly_canonical(dir, e2);
  fs::path rel = real.lexically_relative(root);
  if (e1 || e2 || rel.empty() || *rel.begin() == "..") {
    return Status::InvalidArgument(path.string() + ": leads outside the trajectory folder (to " + real.string() +
                                   ")");
  }
  return Status::Ok();
}

// Reads a UTF-8 text file of the trajectory folder `dir` that must be
// non-empty.
Result<std::string> ReadText(const fs::path& path, const fs::path& dir) {
  RG_RETURN_IF_ERROR(InsideFolder(path, dir));
  RG_ASSIGN_OR_RETURN(std::string text, ReadInputFile(path));
  if (!IsValidUtf8(text)) return Status::InvalidArgument(path.string() + ": not valid UTF-8");
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return Status::InvalidArgument(path.string() + ": empty");
  }
  return text;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n;
    if (c < 0x80) {
      n = 0;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if ((c >> 4) == 0xE) {
      n = 2;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
    } else {
      return false;  // continuation byte, overlong lead or out of range
    }
    if (n > 0 && i + n >= s.size()) return false;
    for (size_t k = 1; k <= n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    if (n >= 2) {
      unsigned char c1 = static_cast<unsigned char>(s[i + 1]);
      if ((c == 0xE0 && c1 < 0xA0) || (c == 0xED && c1 >= 0xA0) ||  // overlong, surrogate
          (c == 0xF0 && c1 < 0x90) || (c == 0xF4 && c1 >= 0x90)) {
        return false;
      }
    }
    i += n + 1;
  }
  return true;
}

namespace {

// The fields of trajectory.json's `root` beside its steps: format, version,
// the kernel (the folder's name) and the function reference.cpp defines.
Status ReadTrajectoryHeader(const JsonPath& root, const fs::path& dir, Trajectory* t) {
  RG_RETURN_IF_ERROR(root.CheckKeys({"format", "version", "kernel", "function", "steps"}));
  RG_ASSIGN_OR_RETURN(std::string format, root.GetString("format"));
  if (format != kTrajectoryFormatName) {
    return root.FieldError("format", "expected \"regrapht-trajectory\", got " + Quoted(format));
  }
  RG_ASSIGN_OR_RETURN(int64_t version, root.GetInt("version"));
  if (version != 1) {
    return root.FieldError(
        "version", "unsupported version " + std::to_string(version) + " (this build reads 1)");
  }
  RG_ASSIGN_OR_RETURN(t->kernel_id, root.GetName("kernel"));
  std::string folder = dir.filename().string();
  if (folder.empty()) folder = dir.parent_path().filename().string();  // "dir/"
  if (t->kernel_id != folder) {
    return root.FieldError(
        "kernel", Quoted(t->kernel_id) + " does not match the folder name " + Quoted(folder));
  }
  RG_ASSIGN_OR_RETURN(t->name, root.GetString("function"));
  if (!IsIdentifier(t->name)) {
    return root.FieldError("function", "expected a C++ identifier, got " + Quoted(t->name));
  }
  if (!scan::DefinesFunction(t->sequential_source, t->name)) {
    return root.FieldError("function", "reference.cpp does not define " + Quoted(t->name));
  }
  return Status::Ok();
}

// Step i (at `s`) of trajectory t (its steps before i read): its code file,
// a .cu file of the folder no earlier step names (*files: file -> step),
// defines the function and changes the code before it; its verification
// record, if any, is about that code.
Result<TrajectoryStep> ReadStep(const JsonPath& s, size_t i, const fs::path& dir,
                                const Trajectory& t, std::map<std::string, size_t>* files) {
  RG_RETURN_IF_ERROR(s.CheckKeys({"method", "think", "detail", "code", "verification"}));
  TrajectoryStep step;
  // A method outside the taxonomy becomes a node's name: bounded here, at
  // the input, like every name (a 5 MB one was once written to a graph
  // that `graph stats` then refused).
  RG_ASSIGN_OR_RETURN(step.method, s.GetName("method"));
  if (Trim(step.method).empty()) return s.FieldError("method", "must not be empty");
  RG_ASSIGN_OR_RETURN(step.think, s.GetString("think"));
  RG_ASSIGN_OR_RETURN(step.detail, s.GetString("detail"));
  RG_ASSIGN_OR_RETURN(step.code_file, s.GetString("code"));
  const std::string& file = step.code_file;
  if (file.empty() || file.find('/') != std::string::npos || file.find('\\') != std::string::npos ||
      file == "." || file == "..") {
    return s.FieldError("code", "expected a file name in the folder, got " + Quoted(file));
  }
  if (!EndsWith(file, ".cu")) {
    return s.FieldError("code", "expected a .cu file, got " + Quoted(file));
  }
  if (files->count(file)) {
    return s.FieldError(
        "code", Quoted(file) + " is also steps[" + std::to_string((*files)[file]) + "].code");
  }
  (*files)[file] = i;
  fs::path code_path = dir / file;
  std::error_code ec;
  if (!fs::is_regular_file(code_path, ec)) {
    return s.FieldError("code", Quoted(file) + " does not exist");
  }
  auto code = ReadText(code_path, dir);
  if (!code.ok()) return s.FieldError("code", code.status().message());
  step.code = std::move(code).value();
  if (!scan::DefinesFunction(step.code, t.name)) {
    return s.FieldError("code", Quoted(file) + " does not define " + Quoted(t.name) +
                                    " (every step keeps the function's name)");
  }
  const std::string& before = i == 0 ? t.sequential_source : t.steps.back().code;
  if (step.code == before) {
    return s.FieldError("code", Quoted(file) + " is identical to the code before it " +
                                    "(the step changes nothing)");
  }
  if (s.Has("verification")) {
    RG_ASSIGN_OR_RETURN(StepVerification v, VerificationFromJson(s["verification"]));
    if (!v.source_hash.empty() && v.source_hash != HashHex(step.code)) {
      return s["verification"].FieldError(
          "source_hash", "does not match " + Quoted(file) + " (the record is about other code)");
    }
    if (v.verifier.empty()) v.verifier = "authored";
    step.verification = std::move(v);
  }
  return step;
}

}  // namespace

Result<Trajectory> ReadTrajectoryDir(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Status::NotFound(dir.string() + ": no such folder");
  }
  Trajectory t;
  t.dir = dir;
  fs::path problem = dir / "problem.json";
  if (!fs::is_regular_file(problem, ec)) {
    return Status::NotFound(problem.string() +
                            ": missing (every trajectory folder needs its harness spec)");
  }
  RG_RETURN_IF_ERROR(InsideFolder(problem, dir));
  RG_ASSIGN_OR_RETURN(t.sequential_source, ReadText(dir / "reference.cpp", dir));
  RG_ASSIGN_OR_RETURN(t.description, ReadText(dir / "description.md", dir));

  fs::path tj = dir / "trajectory.json";
  RG_RETURN_IF_ERROR(InsideFolder(tj, dir));
  RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(tj));
  JsonPath root(j, tj.string());
  RG_RETURN_IF_ERROR(ReadTrajectoryHeader(root, dir, &t));

  if (!root.Has("steps")) return root.FieldError("steps", "required field is missing");
  JsonPath steps = root["steps"];
  RG_RETURN_IF_ERROR(steps.ExpectArray());
  if (steps.json().empty()) return steps.Error("expected at least one step");
  std::map<std::string, size_t> files;
  for (size_t i = 0; i < steps.json().size(); ++i) {
    RG_ASSIGN_OR_RETURN(TrajectoryStep step, ReadStep(steps[i], i, dir, t, &files));
    t.steps.push_back(std::move(step));
  }
  return t;
}

Result<std::vector<fs::path>> FindTrajectoryDirs(const std::vector<fs::path>& roots,
                                                 std::vector<fs::path>* skipped) {
  std::vector<fs::path> out;
  for (const fs::path& root : roots) {
    std::error_code ec;
    if (!fs::exists(root, ec)) return Status::NotFound(root.string() + ": no such folder");
    if (!fs::is_directory(root, ec)) return Status::InvalidArgument(root.string() + ": not a folder");
    if (fs::exists(root / "trajectory.json", ec)) {
      out.push_back(root);
      continue;
    }
    std::vector<fs::path> subs;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (name.empty() || name[0] == '.') continue;
      if (it->is_directory(ec)) subs.push_back(it->path());
    }
    if (ec) return Status::IoError(root.string() + ": cannot list: " + ec.message());
    std::sort(subs.begin(), subs.end());
    for (auto& sub : subs) {
      if (fs::exists(sub / "trajectory.json", ec)) {
        out.push_back(sub);
      } else if (skipped) {
        skipped->push_back(sub);
      }
    }
  }
  return out;
}

}  // namespace regrapht

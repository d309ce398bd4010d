#include "bench/pareval_prompts.h"

#include "core/json_util.h"
#include "core/strings.h"
#include "verify/build/driver_gen.h"
#include "verify/build/kernel_form.h"

namespace regrapht::bench {

Result<std::map<std::string, std::string>> LoadParEvalPrompts(const fs::path& file, const std::string& model) {
  RG_ASSIGN_OR_RETURN(Json j, ReadJsonFile(file));
  JsonPath root(j, file.string());
  RG_RETURN_IF_ERROR(root.ExpectArray());
  std::map<std::string, std::string> out;
  for (size_t i = 0; i < j.size(); ++i) {
    JsonPath e = root[i];
    RG_RETURN_IF_ERROR(e.ExpectObject());
    RG_ASSIGN_OR_RETURN(std::string m, e.GetString("parallelism_model"));
    if (m != model) continue;
    RG_ASSIGN_OR_RETURN(std::string name, e.GetString("name"));
    RG_ASSIGN_OR_RETURN(std::string prompt, e.GetString("prompt"));
    if (!out.emplace(name, prompt).second) return e.FieldError("name", "a second \"" + model + "\" prompt for " + name);
  }
  if (out.empty()) return Status::InvalidArgument(file.string() + ": no \"" + model + "\" prompts");
  return out;
}

std::string KernelTaskFromSpec(const Problem& problem) {
  const ProblemSpec& spec = problem.spec;
  std::string s = verify::StructsCpp(spec, true);
  if (!s.empty()) s += "\n";
  s += "/* " + std::string(Trim(problem.description)) + "\n   " + verify::LaunchContract(spec) + "\n*/\n";
  return s + verify::KernelSignature(spec) + " {\n";
}

}  // namespace regrapht::bench

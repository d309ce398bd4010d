// ParEval's prompt file (generation-prompts.json in a ParEval checkout): a
// JSON array of {"name", "problem_type", "parallelism_model", "prompt", ...}.
// regrapht ships none of it; `bench --form kernel --pareval-prompts FILE`
// reads the user's copy and shows each problem's "cuda" prompt to the model.
#pragma once

#include <map>
#include <string>

#include "core/fs.h"
#include "regrapht/problem.h"

namespace regrapht::bench {

// name -> prompt text of the entries whose parallelism_model is `model`.
// Errors name the file and the entry ("prompts.json: [12].prompt: expected a string").
Result<std::map<std::string, std::string>> LoadParEvalPrompts(const fs::path& file, const std::string& model = "cuda");

// The kernel-form task for a problem without a ParEval prompt: its
// description, the launch contract and the kernel's signature opened for
// completion, in ParEval's style.
std::string KernelTaskFromSpec(const Problem& problem);

}  // namespace regrapht::bench

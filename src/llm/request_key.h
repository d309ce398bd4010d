// The identity of a model request, shared by the response cache (CacheKey in
// regrapht/llm.h) and the search's pipeline (search/pipeline.h).
#pragma once

#include <string>

#include "regrapht/llm.h"

namespace regrapht {

// A hash (32 hex digits) of everything in `request` that can change its reply:
// messages, every sampling field with the seed (repetition control only when
// on), n, the output shape; not the cancel flag or the progress callback, and
// not the backend. CacheKey hashes the same fields after the backend and model.
std::string RequestKey(const ChatRequest& request);

}  // namespace regrapht

// VerifyResult <-> JSON, for `regrapht verify --json`, reports and storage.
#pragma once

#include "core/json_util.h"
#include "regrapht/verify.h"

namespace regrapht {

OrderedJson TimingToJson(const Timing& t, bool with_samples);
OrderedJson EnvironmentToJson(const Environment& e);
OrderedJson VerifyResultToJson(const VerifyResult& r, bool with_samples = true);
Result<VerifyResult> VerifyResultFromJson(const Json& j);

}  // namespace regrapht

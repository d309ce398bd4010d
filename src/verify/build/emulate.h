// CPU emulation of a CUDA candidate (correctness only, never speed).
//
// RewriteForEmulation turns CUDA-only syntax into C++ the host compiler
// accepts with emu/regrapht_cuda_emu.h forced in: `k<<<g, b, s, st>>>(a...)`
// becomes `::regrapht_emu::Launch(::regrapht_emu::Cfg(g, b, s, st),
// [=]() { k(a...); })` and `extern __shared__ T name[];` becomes a pointer
// into the block's dynamic shared memory. Line numbers are kept.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "regrapht/status.h"

namespace regrapht::verify {

// The rewritten source, or InvalidArgument naming the line of a launch whose
// `<<<`, `>>>` or argument list does not balance.
Result<std::string> RewriteForEmulation(const std::string& source);

// The emulator header and the stand-ins for the CUDA headers a candidate may
// include (cuda_runtime.h, cooperative_groups.h, ...), by file name.
std::map<std::string, std::string> EmulationHeaders();

// Name of the header to force in with `-include`.
inline constexpr std::string_view kEmulationHeader = "regrapht_cuda_emu.h";

// The checker every emulated program links (emu/regrapht_emu_check.cc):
// bounds, races and output provenance from the sanitizer hooks below.
std::string_view EmulationCheckerSource();

// Flags that compile the candidate for the checker: GCC's ThreadSanitizer
// and array-bounds instrumentation, served by the checker instead of the
// sanitizer runtimes.
std::vector<std::string> EmulationCheckFlags();

}  // namespace regrapht::verify

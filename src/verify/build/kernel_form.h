// The kernel form of a problem (ParEval's own task): the candidate writes one
// __global__ kernel with the signature the spec's "kernel" section declares;
// regrapht generates the host side, an adapter with a C entry point the
// driver calls in place of the drop-in function. The adapter copies the
// driver's arguments to the device (converting std::complex to cuComplex,
// std::vector<bool> to bool arrays, strings to device strings), launches the
// kernel once with the launch contract (1-D: blocks of 1024 threads, enough
// blocks for `threads`; 2-D: blocks of 32 x 32 covering x by y), times the
// launch with CUDA events, copies the outputs back and frees everything.
//
// The adapter is its own translation unit, compiled by nvcc apart from the
// candidate: nothing the candidate defines (macros included) reaches it.
#pragma once

#include <string>

#include "regrapht/problem.h"

namespace regrapht::verify {

// The kernel's declaration: "__global__ void spmv(double alpha, const COOElement* A, ...)".
// REQUIRES: spec.kernel.
std::string KernelSignature(const ProblemSpec& spec);

// CUDA source of the adapter: defines
//   extern "C" void regrapht_kernel_form_call(void* const* args, const int64_t* sizes, void* ret)
// (the contract GenerateDriver(spec, true) calls) and declares the kernel.
// REQUIRES: spec.kernel.
Result<std::string> GenerateKernelAdapter(const ProblemSpec& spec);

// The launch contract and the initial values, in words for a prompt or a
// description: "The kernel is launched once with 1-D blocks of 1024 threads,
// at least n threads in all. On entry *count holds 0; ...".
std::string LaunchContract(const ProblemSpec& spec);

// What the candidate's translation unit is compiled from: the kernel-world
// structs it does not define itself and <cuComplex.h>, then its source from
// line 1 (ParEval's harness puts both before the generated code).
std::string KernelFormCandidateSource(const ProblemSpec& spec, const std::string& source);

}  // namespace regrapht::verify

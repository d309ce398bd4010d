// Deterministic pseudo-random numbers for the library: regrapht::Rng is the
// generator the test drivers use (core/rng_standalone.h, one definition).
#pragma once

#include "core/rng_standalone.h"

namespace regrapht {

using rg::Rng;
using rg::SplitMix64;

}  // namespace regrapht

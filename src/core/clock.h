// The clock seam (Clock, SystemClock, FakeClock) is public API:
// include/regrapht/clock.h.
#pragma once

#include "regrapht/clock.h"

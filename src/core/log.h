// Logging: spdlog to stderr. Library code logs at debug/info; user-facing
// output goes through the CLI's printers, not the log.
#pragma once

#include <spdlog/spdlog.h>

#include "regrapht/log.h"  // SetLogLevel: public (a program on the library sets the level)

// Logging: spdlog to stderr. Library code logs at debug/info; user-facing
// output goes through the CLI's printers, not the log.
#pragma once

#include <spdlog/spdlog.h>

namespace regrapht {

// Sets the level from a name ("debug", "info", "warn", "error", "off").
void SetLogLevel(const std::string& level);

}  // namespace regrapht

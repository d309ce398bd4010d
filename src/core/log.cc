#include "core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>

namespace regrapht {

void SetLogLevel(const std::string& level) {
  // spdlog's default logger writes to stdout; regrapht's stdout is for
  // results (--json documents, reports), so the log goes to stderr.
  static const bool to_stderr = [] {
    spdlog::set_default_logger(spdlog::stderr_color_mt("regrapht"));
    return true;
  }();
  (void)to_stderr;
  spdlog::set_level(spdlog::level::from_str(level));
  spdlog::set_pattern("[%H:%M:%S.%e] [%^%l%$] %v");
}

}  // namespace regrapht

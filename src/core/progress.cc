#include "core/progress.h"

#include <unistd.h>

namespace regrapht {

std::string FormatDuration(double s) {
  if (s < 0) s = 0;
  int t = static_cast<int>(s + 0.5);
  char buf[32];
  if (t >= 3600) {
    std::snprintf(buf, sizeof buf, "%dh%02dm", t / 3600, (t / 60) % 60);
  } else {
    std::snprintf(buf, sizeof buf, "%dm%02ds", t / 60, t % 60);
  }
  return buf;
}

CountProgress::CountProgress(bool enabled, int total, const Clock* clock, std::FILE* out)
    : enabled_(enabled && out != nullptr),
      tty_(out != nullptr && ::isatty(fileno(out))),
      total_(total),
      clock_(clock),
      out_(out),
      start_(clock->NowSeconds()) {}

void CountProgress::Update(int done, const std::string& counts, const std::string& last) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mu_);
  double elapsed = clock_->NowSeconds() - start_;
  double eta = done > 0 ? elapsed / done * (total_ - done) : 0;
  const int width = 24;
  int filled = total_ > 0 ? done * width / total_ : width;
  if (filled > width) filled = width;
  std::string bar = std::string(filled, '#') + std::string(width - filled, '.');
  char line[512];
  std::snprintf(line, sizeof line, "[%s] %d/%d  %s  elapsed %s  ETA %s", bar.c_str(), done, total_,
                counts.c_str(), FormatDuration(elapsed).c_str(),
                done ? FormatDuration(eta).c_str() : "?");
  if (tty_) {
    std::fprintf(out_, "\r%-110s", line);
    if (done == total_) std::fprintf(out_, "\n");
  } else {
    std::fprintf(out_, "%s  %s\n", line, last.c_str());
  }
  std::fflush(out_);
}

}  // namespace regrapht

#include "core/progress.h"

#include <unistd.h>

#include <chrono>

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

StatusLine::StatusLine(Options options, std::function<std::string()> render)
    : options_(options), render_(std::move(render)) {}

StatusLine::~StatusLine() { Stop(); }

void StatusLine::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ || stopping_) return;
  started_ = true;
  DrawLocked();
  ticker_ = std::thread([this] { Tick(); });
}

void StatusLine::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) return;
    stopping_ = true;
    ClearLocked();
  }
  cv_.notify_all();
  if (ticker_.joinable()) ticker_.join();
}

void StatusLine::Refresh() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ && !stopping_) DrawLocked(/*skip_same=*/true);
}

void StatusLine::Print(std::FILE* f, const std::string& text) {
  std::lock_guard<std::mutex> lock(mu_);
  ClearLocked();
  std::fputs(text.c_str(), f);
  std::fflush(f);
}

int StatusLine::printed() const {
  std::lock_guard<std::mutex> lock(mu_);
  return printed_;
}

void StatusLine::DrawLocked(bool skip_same) {
  if (!options_.out) return;
  std::string line = render_();
  if (skip_same && line == last_ && (drawn_ || !options_.tty)) return;
  last_ = line;
  if (options_.tty) {
    std::fprintf(options_.out, "\r\033[K%s", line.c_str());
    drawn_ = true;
  } else {
    std::fprintf(options_.out, "%s\n", line.c_str());
  }
  std::fflush(options_.out);
  ++printed_;
}

void StatusLine::ClearLocked() {
  if (!drawn_) return;
  std::fputs("\r\033[K", options_.out);
  std::fflush(options_.out);
  drawn_ = false;
}

void StatusLine::Tick() {
  const auto interval = std::chrono::duration<double>(options_.interval_s > 0 ? options_.interval_s : 5);
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (cv_.wait_for(lock, interval, [this] { return stopping_; })) break;
    DrawLocked();
  }
}

}  // namespace regrapht

// Progress lines on stderr. CountProgress, for batch commands (bench, graph
// build):
//
//   [##########..............] 5/12  correct 3  failed 2  elapsed 1m05s  ETA 1m31s
//
// On a terminal the line is redrawn in place; otherwise (logs, CI) one line
// is printed per update, followed by what just finished.
//
// Thread safety: Update() may be called from several threads.
#pragma once

#include <condition_variable>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include "core/clock.h"

namespace regrapht {

// "1m05s", "2h03m".
std::string FormatDuration(double seconds);

class CountProgress {
 public:
  // `out` null or `enabled` false: silent. `clock` must outlive *this.
  CountProgress(bool enabled, int total, const Clock* clock, std::FILE* out = stderr);

  // `done` of the total are finished; `counts` is shown after the count
  // ("correct 3  failed 2"); `last` names what just finished (non-terminal
  // output only).
  void Update(int done, const std::string& counts, const std::string& last);

 private:
  bool enabled_, tty_;
  int total_;
  const Clock* clock_;
  std::FILE* out_;
  double start_;
  std::mutex mu_;
};

// A status line that shows a long job is alive (optimize's search): the text
// of `render()`, printed by Start(), by Refresh() (a new phase) and every
// `interval_s` seconds in between. On a terminal it is one line redrawn in
// place; elsewhere (logs, pipes, CI) each print is a plain line of its own.
// Lines the command prints itself go through Print(), which clears the status
// line first on a terminal so that the two never mix; the next tick redraws it.
//
// The interval is wall time (a thread sleeping on a condition variable):
// `render` reads whatever clock it likes.
//
// Thread safety: every method may be called from any thread; `render` is
// called with the line's lock held, from the caller's thread or the ticker's,
// and must not call back into the StatusLine.
class StatusLine {
 public:
  struct Options {
    std::FILE* out = stderr;  // null: silent (Print still prints)
    bool tty = false;         // redraw one line in place
    double interval_s = 5;    // between prints when nothing else happens
  };
  StatusLine(Options options, std::function<std::string()> render);
  ~StatusLine();  // Stop()
  StatusLine(const StatusLine&) = delete;
  StatusLine& operator=(const StatusLine&) = delete;

  // Prints the line now and starts the ticker. Idempotent.
  void Start();
  // Stops the ticker and clears the line on a terminal; later Print()s still
  // print. Idempotent.
  void Stop();
  // Prints the line now (when started), e.g. on a change of phase, unless
  // it is the line printed last, word for word.
  void Refresh();
  // Prints `text` (its own newlines included) to `f`, clearing the status
  // line first on a terminal; flushes.
  void Print(std::FILE* f, const std::string& text);
  // Lines the ticker and Refresh() printed so far.
  int printed() const;

 private:
  void DrawLocked(bool skip_same = false);
  void ClearLocked();
  void Tick();

  Options options_;
  std::function<std::string()> render_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool started_ = false, stopping_ = false, drawn_ = false;
  int printed_ = 0;
  std::string last_;
  std::thread ticker_;
};

}  // namespace regrapht

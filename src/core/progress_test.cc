#include "core/progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

namespace regrapht {
namespace {

// What was written to `f` so far.
std::string Contents(std::FILE* f) {
  std::fflush(f);
  long end = std::ftell(f);
  std::string s(static_cast<size_t>(end), '\0');
  std::rewind(f);
  size_t n = std::fread(s.data(), 1, s.size(), f);
  s.resize(n);
  std::fseek(f, 0, SEEK_END);
  return s;
}

TEST(StatusLineTest, PrintsAtStartAndEveryIntervalAsPlainLinesInALog) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::atomic<int> renders{0};
  StatusLine line({f, /*tty=*/false, /*interval_s=*/0.05}, [&] { return "tick " + std::to_string(++renders); });
  line.Start();
  EXPECT_EQ(Contents(f), "tick 1\n");  // at once, not after the first interval
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  line.Stop();
  const int printed = line.printed();
  EXPECT_GE(printed, 3) << Contents(f);
  std::string out = Contents(f);
  EXPECT_EQ(out.find('\r'), std::string::npos);  // no terminal control in a log
  EXPECT_EQ(out.substr(0, 14), "tick 1\ntick 2\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  EXPECT_EQ(line.printed(), printed);  // stopped: no more ticks
  std::fclose(f);
}

TEST(StatusLineTest, OnATerminalTheLineIsRedrawnAndClearedBeforeOtherOutput) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::string phase = "loading";
  StatusLine line({f, /*tty=*/true, /*interval_s=*/60}, [&] { return phase; });
  line.Start();
  EXPECT_EQ(Contents(f), "\r\033[Kloading");
  line.Print(f, "model      tiny\n");
  EXPECT_EQ(Contents(f), "\r\033[Kloading\r\033[Kmodel      tiny\n");
  line.Print(f, "again\n");  // nothing drawn since: nothing to clear
  phase = "generating";
  line.Refresh();
  line.Stop();
  EXPECT_EQ(Contents(f), "\r\033[Kloading\r\033[Kmodel      tiny\nagain\n\r\033[Kgenerating\r\033[K");
  std::fclose(f);
}

TEST(StatusLineTest, ARefreshDoesNotRepeatTheLinePrintedLast) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  std::string text = "a";
  StatusLine line({f, false, 60}, [&] { return text; });
  line.Start();
  line.Refresh();  // the same words: not printed again
  text = "b";
  line.Refresh();
  line.Stop();
  EXPECT_EQ(Contents(f), "a\nb\n");
  std::fclose(f);
}

TEST(StatusLineTest, RefreshBeforeStartAndAfterStopPrintsNothing) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  StatusLine line({f, false, 60}, [] { return std::string("x"); });
  line.Refresh();
  line.Start();
  line.Start();  // idempotent
  line.Stop();
  line.Refresh();
  line.Stop();
  EXPECT_EQ(Contents(f), "x\n");
  std::fclose(f);
}

}  // namespace
}  // namespace regrapht

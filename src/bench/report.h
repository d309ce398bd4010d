// Report printers (llama-bench style): the paper's tables from metrics.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/metrics.h"

namespace regrapht::bench {

class ReportPrinter {
 public:
  virtual ~ReportPrinter() = default;
  // The whole report for `groups` (already in display order).
  virtual std::string Print(const std::vector<GroupMetrics>& groups, const std::vector<int>& ks) = 0;
};

// "md", "csv" or "json"; nullptr for anything else.
std::unique_ptr<ReportPrinter> NewReportPrinter(const std::string& format);

// Sorts groups by suite, then the methods in the paper's order.
void SortForDisplay(std::vector<GroupMetrics>* groups);

}  // namespace regrapht::bench

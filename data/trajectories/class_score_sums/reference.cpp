// Per-class totals over a table of 8-byte {label, score} records with labels
// in [0, 16): sums[c] (double) and counts[c] of the records of class c.
struct Record {
  int label;
  float score;
};

void class_score_sums(int n, const Record* records, double* sums, int* counts) {
  for (int c = 0; c < 16; ++c) {
    sums[c] = 0.0;
    counts[c] = 0;
  }
  for (int i = 0; i < n; ++i) {
    sums[records[i].label] += records[i].score;
    counts[records[i].label] += 1;
  }
}

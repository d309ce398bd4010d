// Update step of k-means with 16 clusters on 2-D points stored as two arrays.
// label[i] in [0, 16) is the cluster of point i; the new centre of cluster c is
// the mean of its points, or (0, 0) when it has none.
void kmeans_update16(int n, const float* px, const float* py, const int* label, float* cx, float* cy) {
  float sum_x[16] = {0.0f}, sum_y[16] = {0.0f};
  int members[16] = {0};
  for (int i = 0; i < n; ++i) {
    int c = label[i];
    sum_x[c] += px[i];
    sum_y[c] += py[i];
    ++members[c];
  }
  for (int c = 0; c < 16; ++c) {
    cx[c] = members[c] > 0 ? sum_x[c] / members[c] : 0.0f;
    cy[c] = members[c] > 0 ? sum_y[c] / members[c] : 0.0f;
  }
}

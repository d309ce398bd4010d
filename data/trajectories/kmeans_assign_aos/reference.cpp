struct Point3 {
  float x, y, z;
};

// Assignment step of k-means: each point gets the index of its nearest
// centroid by squared Euclidean distance (the lowest index wins ties).
// Points and centroids are arrays of 12-byte {x, y, z} records.
void kmeans_assign_aos(int n, int k, const Point3* points, const Point3* centroids, int* label) {
  for (int i = 0; i < n; ++i) {
    const Point3& p = points[i];
    int best = 0;
    float best_d = 0.0f;
    for (int j = 0; j < k; ++j) {
      float dx = p.x - centroids[j].x;
      float dy = p.y - centroids[j].y;
      float dz = p.z - centroids[j].z;
      float d = dx * dx + dy * dy + dz * dz;
      if (j == 0 || d < best_d) {
        best_d = d;
        best = j;
      }
    }
    label[i] = best;
  }
}

// Summed-area table of each 32 x 32 tile of a row-major width x height float
// image (tiles start at multiples of 32; those at the right and bottom edges
// may be smaller): out[y][x] is the sum of img over the pixels (i, j) of the
// same tile with i <= x and j <= y. Computed as prefix sums along each tile
// row, then prefix sums of those down each tile column.
void tile_sat32(int width, int height, const float* img, float* out) {
  for (int y = 0; y < height; ++y) {
    float run = 0.0f;
    for (int x = 0; x < width; ++x) {
      if (x % 32 == 0) run = 0.0f;
      run += img[y * width + x];
      out[y * width + x] = run;
    }
  }
  for (int x = 0; x < width; ++x) {
    float run = 0.0f;
    for (int y = 0; y < height; ++y) {
      if (y % 32 == 0) run = 0.0f;
      run += out[y * width + x];
      out[y * width + x] = run;
    }
  }
}

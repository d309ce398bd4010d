// Sparse matrix-vector product y = A x for a matrix in BSR (block sparse row)
// format with dense 4 x 4 blocks, as used for systems with four unknowns per
// node (e.g. 3-D elasticity plus pressure). A has mb block rows and nb block
// columns (4*mb x 4*nb scalars); block row I holds the blocks
// brow_ptr[I] .. brow_ptr[I+1]-1 with block columns bcol_idx[e] (sorted,
// distinct), and block e is stored row-major in bvals[16*e .. 16*e + 16).
// nnzb = brow_ptr[mb]; bvals holds at least 16 * nnzb floats (the caller may
// size it for a maximum number of blocks per block row, here 27).
void bsr4Spmv(int mb, int nb, int nnzb, const int* brow_ptr, const int* bcol_idx,
              const float* bvals, const float* x, float* y) {
  (void)nb;
  (void)nnzb;
  for (int I = 0; I < mb; ++I) {
    for (int r = 0; r < 4; ++r) {
      float sum = 0.0f;
      for (int e = brow_ptr[I]; e < brow_ptr[I + 1]; ++e) {
        const float* blk = bvals + 16LL * e + 4 * r;
        const float* xs = x + 4LL * bcol_idx[e];
        for (int c = 0; c < 4; ++c) sum += blk[c] * xs[c];
      }
      y[4LL * I + r] = sum;
    }
  }
}

// BLAS-style strided axpby: y[i*incy] = alpha * x[i*incx] + beta * y[i*incy]
// for i < n (positive increments); elements of y between the strided
// positions are left unchanged.
void stridedAxpby(int n, float alpha, const float* x, int incx, float beta, float* y, int incy) {
  for (int i = 0; i < n; ++i) {
    long ix = static_cast<long>(i) * incx;
    long iy = static_cast<long>(i) * incy;
    y[iy] = alpha * x[ix] + beta * y[iy];
  }
}

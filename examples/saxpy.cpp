// A sequential function to optimize: y = a * x + y.
//   regrapht optimize examples/saxpy.cpp --function saxpy -o saxpy.cu
// With the embedded model on a CPU that is 8 generations of up to 512 tokens:
// minutes, estimated before the search starts (--max-seconds 600 caps it).
// The paper's search, --budget 200 --max-tokens 2048, takes hours on a CPU;
// give it an endpoint (--endpoint URL --model-name NAME) or a GPU.
void saxpy(int n, float a, const float* x, float* y) {
  for (int i = 0; i < n; ++i) y[i] = a * x[i] + y[i];
}

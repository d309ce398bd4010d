// Merges two ascending integer arrays into one ascending array of na + nb
// elements; on equal keys the element of a comes first.
void mergeSortedRuns(int na, const int* a, int nb, const int* b, int* out) {
  int i = 0, j = 0, k = 0;
  while (i < na && j < nb) {
    if (a[i] <= b[j]) {
      out[k++] = a[i++];
    } else {
      out[k++] = b[j++];
    }
  }
  while (i < na) out[k++] = a[i++];
  while (j < nb) out[k++] = b[j++];
}

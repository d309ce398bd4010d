#include <cmath>

// Clean price of fixed-coupon bonds on a coupon date from their annual yield:
// bond i pays freq[i] coupons a year (1, 2, 4 or 12) of face[i] * coupon[i] /
// freq[i] for periods[i] periods (periods[i] >= 1) and returns face[i] with
// the last coupon. Cash flows are discounted at the periodic yield
// y = yield[i] / freq[i]:
//   price = sum_{k=1..periods} cpn / (1 + y)^k + face / (1 + y)^periods.
// Yields are > -freq (so 1 + y > 0) and may be 0.
void bondPriceFromYield(int n, const double* face, const double* coupon, const int* freq,
                        const int* periods, const double* yield, double* price) {
  for (int i = 0; i < n; ++i) {
    const double y = yield[i] / freq[i];
    const double cpn = face[i] * coupon[i] / freq[i];
    double pv = 0.0;
    for (int k = 1; k <= periods[i]; ++k) pv += cpn / std::pow(1.0 + y, k);
    pv += face[i] / std::pow(1.0 + y, periods[i]);
    price[i] = pv;
  }
}

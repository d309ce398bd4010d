#include <cstdint>

// G.711 mu-law companding: encodes n signed 16-bit PCM samples to 8-bit
// mu-law codes as telephony codecs do. A sample's magnitude (clipped to
// 32635) plus the bias 0x84 falls in one of 8 segments, found from its
// highest set bit among bits 14..7 (segment 0 below bit 7); the code packs
// the sign, the segment and the 4 bits below the segment's leading bit, and
// is stored inverted. n may be 0.
void mulawEncode(const int16_t* pcm, uint8_t* codes, int n) {
  const int kBias = 0x84;
  const int kClip = 32635;
  for (int i = 0; i < n; ++i) {
    int sample = pcm[i];
    int sign = (sample >> 8) & 0x80;
    if (sign != 0) sample = -sample;
    if (sample > kClip) sample = kClip;
    sample += kBias;
    int exponent = 7;
    for (int mask = 0x4000; (sample & mask) == 0 && exponent > 0; mask >>= 1) {
      --exponent;
    }
    int mantissa = (sample >> (exponent + 3)) & 0x0F;
    codes[i] = static_cast<uint8_t>(~(sign | (exponent << 4) | mantissa));
  }
}

/* encode_check: the C encoder on rows of raw features, for hostdrv's tests.
 *
 *   encode_check IN OUT
 *
 * IN holds rows of K little-endian doubles; OUT gets, per row, the K input
 * elements (uint32) from hdlgen_encode followed by the B beats (uint32) from
 * hdlgen_pack. */
#include <stdio.h>
#include <stdlib.h>

#include "hdlgen.h"

int main(int argc, char **argv) {
  FILE *in, *out;
  size_t k = hdlgen_features(), b = hdlgen_beats_per_vector(), rows = 0;
  double *row;
  uint32_t *el, *beats;
  if (argc != 3) {
    fprintf(stderr, "usage: encode_check IN OUT\n");
    return 2;
  }
  in = fopen(argv[1], "rb");
  out = fopen(argv[2], "wb");
  row = (double *)malloc(k * sizeof *row);
  el = (uint32_t *)malloc(k * sizeof *el);
  beats = (uint32_t *)malloc(b * sizeof *beats);
  if (!in || !out || !row || !el || !beats) {
    fprintf(stderr, "encode_check: cannot open files or allocate\n");
    return 1;
  }
  while (fread(row, sizeof *row, k, in) == k) {
    hdlgen_encode(row, el);
    hdlgen_pack(el, beats);
    if (fwrite(el, sizeof *el, k, out) != k || fwrite(beats, sizeof *beats, b, out) != b) {
      fprintf(stderr, "encode_check: write failed\n");
      return 1;
    }
    rows++;
  }
  if (fclose(out) != 0) return 1;
  fprintf(stderr, "encode_check: %zu rows\n", rows);
  return 0;
}

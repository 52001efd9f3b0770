/* sim_check: the driver's end-to-end run for hostdrv's tests, on any backend.
 *
 *   sim_check SPEC ROWS PLAN READOUT OUT
 *
 * ROWS holds raw rows (K little-endian doubles each). PLAN is a text file of
 * steps, one per line:
 *   batch FIRST COUNT      classify rows FIRST..FIRST+COUNT-1 as one batch
 *   try FIRST COUNT        the same, but a failure is reported ("fail FIRST
 *                          COUNT STATUS") and the plan goes on
 *   send FIRST COUNT       send rows FIRST.. as one batch without receiving:
 *                          their results wait in the system, stale for the
 *                          next batch (hdlgen_send)
 *   malformed FIRST COUNT BAD
 *                          send rows FIRST.. as one raw batch in which row
 *                          FIRST+BAD lacks EOV on its last beat (so it is cut
 *                          short by the next vector's SOV and dropped)
 *   reload                 load READOUT (hdlgen weights) and swap banks
 *   clear                  clear the counters
 * OUT gets one line per record, "rec ROW SEQ FLAGS CLASS S0 S1 ...", and at
 * the end "counters CLASSIFIED DROPPED STRAY BATCHES STATUS". A failing call
 * (but a try) prints the driver's message and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hdlgen.h"

static void die(const char *what, hdlgen_dev *dev, int rc) {
  fprintf(stderr, "sim_check: %s: %s (%s)\n", what, dev ? hdlgen_error(dev) : hdlgen_open_error(), hdlgen_strerror(rc));
  exit(1);
}

int main(int argc, char **argv) {
  FILE *rf, *pf, *out;
  size_t k = hdlgen_features(), l = hdlgen_classes(), b = hdlgen_beats_per_vector(), nrows, i;
  long size;
  double *rows;
  hdlgen_dev *dev = NULL;
  char line[256];
  int rc;
  if (argc != 6) {
    fprintf(stderr, "usage: sim_check SPEC ROWS PLAN READOUT OUT\n");
    return 2;
  }
  if (!(rf = fopen(argv[2], "rb")) || fseek(rf, 0, SEEK_END) != 0 || (size = ftell(rf)) < 0) return 1;
  rewind(rf);
  nrows = (size_t)size / (8 * k);
  rows = (double *)malloc((size_t)size + 8);
  if (!rows || fread(rows, 8 * k, nrows, rf) != nrows) return 1;
  fclose(rf);
  if (!(pf = fopen(argv[3], "r")) || !(out = fopen(argv[5], "w"))) return 1;
  if ((rc = hdlgen_open(&dev, argv[1])) != HDLGEN_OK) die("open", NULL, rc);
  while (fgets(line, sizeof line, pf)) {
    size_t first = 0, count = 0, bad = 0;
    int try = sscanf(line, "try %zu %zu", &first, &count) == 2;
    if (try || sscanf(line, "batch %zu %zu", &first, &count) == 2) {
      int32_t *cls = (int32_t *)malloc(count * sizeof *cls), *sc = (int32_t *)malloc(count * l * sizeof *sc);
      uint32_t *fl = (uint32_t *)malloc(count * sizeof *fl);
      if (first + count > nrows || !cls || !sc || !fl) return 1;
      if ((rc = hdlgen_classify(dev, rows + first * k, count, cls, sc, fl)) != HDLGEN_OK) {
        if (!try) die("classify", dev, rc);
        fprintf(out, "fail %zu %zu %d\n", first, count, rc);
        fprintf(stderr, "sim_check: try %zu %zu: %s\n", first, count, hdlgen_error(dev));
        free(cls);
        free(sc);
        free(fl);
        continue;
      }
      for (i = 0; i < count; i++) {
        size_t j;
        fprintf(out, "rec %zu %zu %u %d", first + i, i & 0xFF, fl[i], cls[i]);
        for (j = 0; j < l; j++) fprintf(out, " %d", sc[i * l + j]);
        fprintf(out, "\n");
      }
      free(cls);
      free(sc);
      free(fl);
    } else if (sscanf(line, "malformed %zu %zu %zu", &first, &count, &bad) == 3) {
      uint32_t *beats = (uint32_t *)malloc(count * b * sizeof *beats), *words, el[4096];
      size_t cap = count * (1 + l) + 4, nout = 0, nres = 0, r = 0;
      hdlgen_result *res = (hdlgen_result *)malloc(cap * sizeof *res);
      int32_t *sc = (int32_t *)malloc(cap * l * sizeof *sc);
      words = (uint32_t *)malloc(cap * sizeof *words);
      if (first + count > nrows || bad >= count || k > 4096 || !beats || !res || !sc || !words) return 1;
      for (i = 0; i < count; i++) {
        hdlgen_encode(rows + (first + i) * k, el);
        hdlgen_pack(el, beats + i * b);
      }
      beats[bad * b + b - 1] &= ~0x40000000u; /* no EOV: the vector runs on until the next SOV */
      if ((rc = hdlgen_transfer(dev, beats, count * b, words, cap, &nout)) != HDLGEN_OK) die("transfer", dev, rc);
      if ((rc = hdlgen_parse(words, nout, res, cap, sc, &nres)) != HDLGEN_OK) die("parse", dev, rc);
      for (r = 0; r < nres; r++) {
        size_t j;
        fprintf(out, "rec %zu %u %u %d", first + r, res[r].seq, res[r].flags, res[r].cls);
        for (j = 0; j < l; j++) fprintf(out, " %d", sc[r * l + j]);
        fprintf(out, "\n");
      }
      free(beats);
      free(res);
      free(sc);
      free(words);
    } else if (sscanf(line, "send %zu %zu", &first, &count) == 2) {
      uint32_t *beats = (uint32_t *)malloc(count * b * sizeof *beats), el[4096];
      if (first + count > nrows || k > 4096 || !beats) return 1;
      for (i = 0; i < count; i++) {
        hdlgen_encode(rows + (first + i) * k, el);
        hdlgen_pack(el, beats + i * b);
      }
      if ((rc = hdlgen_send(dev, beats, count * b)) != HDLGEN_OK) die("send", dev, rc);
      free(beats);
    } else if (strncmp(line, "reload", 6) == 0) {
      if ((rc = hdlgen_load_readout(dev, argv[4])) != HDLGEN_OK) die("load_readout", dev, rc);
    } else if (strncmp(line, "clear", 5) == 0) {
      if ((rc = hdlgen_clear_counters(dev)) != HDLGEN_OK) die("clear", dev, rc);
    } else {
      fprintf(stderr, "sim_check: bad plan line %s", line);
      return 2;
    }
  }
  {
    hdlgen_counters c;
    if ((rc = hdlgen_read_counters(dev, &c)) != HDLGEN_OK) die("counters", dev, rc);
    fprintf(out, "counters %u %u %u %u %u\n", c.classified, c.dropped, c.stray, c.batches, c.status);
  }
  hdlgen_close(dev);
  if (fclose(out) != 0) return 1;
  free(rows);
  return 0;
}

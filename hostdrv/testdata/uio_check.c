/* uio_check: the "uio" backend against a fake of the board, for hostdrv's
 * TestUIOBackendOnFakeDMA.
 *
 *   uio_check SPEC BUFFER_FILE PHYS [HOLD]
 *
 * The driver is compiled with -DHDLGEN_UIO_FAKE: its register accesses come
 * here. The fake DMA follows PG021's direct register mode as the backend
 * relies on it: a reset (DMACR.Reset, self-clearing after a few reads) halts
 * both channels; RS clears Halted only after a few DMASR reads; S2MM takes
 * result words while armed, up to its LENGTH or the word with TLAST, then
 * writes the bytes received back into S2MM_LENGTH and sets Idle and IOC;
 * MM2S_LENGTH starts MM2S. Programming a length while a channel is halted is
 * an error the fake counts. Like the DataMover inside S2MM (PG022, "Example
 * DataMover Write (S2MM) Timing"), a running S2MM channel takes up to HOLD
 * words (default 4) of the result stream while no transfer is armed, and
 * writes them first when the next one is; a reset drops them. The fake system
 * frames the input beats as the RTL does for well-formed vectors and gives
 * each a record {tag, seq, flags 0, class}: the class is level 0 mod L, the
 * scores class*10 + l (a rule the test knows); CTRL.FLUSH empties it,
 * STATUS.BUSY says it holds result words.
 *
 * Scenarios (each prints "case NAME ok" or "case NAME FAIL: ..."): normal
 * batches; a stalled S2MM (the call times out after the timeout_ms floor, the
 * next one is right); results of another batch arriving before the call's
 * own, after it checked STATUS (the call fails, the next is right); a record too many inside a batch (a surplus);
 * a marker record (a stray beat with TLAST) in place of a vector's record;
 * a batch that ends with S2MM's interrupt, and one whose interrupt never
 * comes (the call fails naming it, the next is right); a flood of records
 * without TLAST, more than the result half holds (the call
 * fails, the next is right; the driver must not copy more words than its
 * buffer holds); a flush with results in the system (the next batch is
 * right); results left by a send (the next batch drains them and is right); S2MM armed with the whole result half of the buffer; no channel
 * programmed while halted. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "hdlgen.h"
#include "hdlgen_design.h"

#define MM2S_DMACR 0x00u
#define MM2S_DMASR 0x04u
#define MM2S_SA 0x18u
#define MM2S_LENGTH 0x28u
#define S2MM_DMACR 0x30u
#define S2MM_DMASR 0x34u
#define S2MM_DA 0x48u
#define S2MM_LENGTH 0x58u
#define RESET_READS 2 /* DMACR reads before a reset completes */
#define HALT_READS 3  /* DMASR reads before RS clears Halted */
#define MAX_HOLD 16   /* words the fake's DataMover may hold, at most */

/* ---- The fake board ---- */
static struct {
  unsigned char *buf; /* the u-dma-buf file, mapped */
  unsigned long long phys;
  uint32_t mm2s_sa, s2mm_da, s2mm_len;
  int running, halted_reads, reset_reads, halted, armed, mm2s_idle, s2mm_idle;
  int violations; /* a length programmed while halted */
  uint32_t armed_bytes;
  /* the system: its result words not yet taken, TLAST per word */
  uint32_t tag, ctrl;
  uint32_t *word;
  unsigned char *last;
  size_t nword, cap;
  uint32_t seq;
  /* the DataMover: words taken while S2MM was not armed */
  uint32_t held[MAX_HOLD];
  unsigned char held_last[MAX_HOLD];
  int nheld, hold;
  /* faults for the next transfer */
  int stall, stale, surplus, marker, flood;
  /* S2MM's Idle hidden until the backend waits for the interrupt, which
   * comes (irq) or not (noirq: the wait runs out) */
  int hide_idle, noirq;
} fk;

static void push_word(uint32_t w, int last) {
  if (fk.nword == fk.cap) {
    fk.cap = fk.cap ? 2 * fk.cap : 4096;
    fk.word = (uint32_t *)realloc(fk.word, fk.cap * sizeof *fk.word);
    fk.last = (unsigned char *)realloc(fk.last, fk.cap);
    if (!fk.word || !fk.last) abort();
  }
  fk.word[fk.nword] = w;
  fk.last[fk.nword++] = (unsigned char)last;
}

/* pop removes the first n words of the system's output. */
static void pop(size_t n) {
  memmove(fk.word, fk.word + n, (fk.nword - n) * sizeof *fk.word);
  memmove(fk.last, fk.last + n, fk.nword - n);
  fk.nword -= n;
}

static void push_record(uint32_t cls, int last) {
  uint32_t l;
  push_word(fk.tag << HDLGEN_RECORD_TAG_SHIFT | (fk.seq & 0xFFu) << HDLGEN_RECORD_SEQ_SHIFT | cls,
            last && !HDLGEN_SCORES);
  for (l = 0; HDLGEN_SCORES && l < HDLGEN_L; l++) push_word(cls * 10u + l, last && l + 1 == HDLGEN_L);
  fk.seq = last ? 0 : fk.seq + 1;
}

/* push_marker queues the marker record of a stray beat with TLAST: flags
 * MARKER, class 0, no score words. */
static void push_marker(void) {
  push_word(fk.tag << HDLGEN_RECORD_TAG_SHIFT | (fk.seq & 0xFFu) << HDLGEN_RECORD_SEQ_SHIFT |
                HDLGEN_RESULT_MARKER << HDLGEN_RECORD_FLAGS_SHIFT,
            1);
  fk.seq = 0;
}

/* take lets a running S2MM channel without a transfer take result words
 * into its DataMover, up to fk.hold. */
static void take(void) {
  if (!fk.running || fk.halted || fk.armed) return;
  while (fk.nheld < fk.hold && fk.nword > 0) {
    fk.held[fk.nheld] = fk.word[0];
    fk.held_last[fk.nheld++] = fk.last[0];
    pop(1);
  }
}

/* deliver writes the held words, then the system's, into the armed S2MM
 * buffer until the word with TLAST or the length is used up. */
static void deliver(void) {
  uint32_t *dst, words = 0, cap;
  int done = 0, h = 0;
  size_t i = 0;
  if (!fk.armed || fk.stall) return;
  dst = (uint32_t *)(fk.buf + (fk.s2mm_da - fk.phys));
  cap = fk.s2mm_len / 4;
  for (; h < fk.nheld && !done; h++) {
    dst[words++] = fk.held[h];
    done = fk.held_last[h] || words == cap;
  }
  for (; i < fk.nword && !done; i++) {
    dst[words++] = fk.word[i];
    done = fk.last[i] || words == cap;
  }
  if (!done) return; /* S2MM keeps waiting for TLAST */
  memmove(fk.held, fk.held + h, (size_t)(fk.nheld - h) * sizeof fk.held[0]);
  memmove(fk.held_last, fk.held_last + h, (size_t)(fk.nheld - h));
  fk.nheld -= h;
  pop(i);
  fk.s2mm_len = words * 4;
  fk.armed = 0;
  fk.s2mm_idle = 1;
  take();
}

/* mm2s frames the input words as the system does for well-formed vectors
 * (the tests send nothing else) and queues their records. */
static void mm2s(uint32_t bytes) {
  const uint32_t *src = (const uint32_t *)(fk.buf + (fk.mm2s_sa - fk.phys));
  uint32_t n = bytes / 4, i, mask = (1u << HDLGEN_LEVEL_WIDTH) - 1u;
  if (fk.surplus) push_record(0, 0); /* a record no vector asked for */
  if (fk.stale) { /* an earlier batch's results, as long as this one's, come first */
    uint32_t tag = fk.tag;
    fk.tag = (tag + 0x55u) & 0xFFu;
    for (i = 0; i + HDLGEN_BEATS_PER_VECTOR <= n; i += HDLGEN_BEATS_PER_VECTOR)
      push_record((src[i] & mask) % HDLGEN_L, i + HDLGEN_BEATS_PER_VECTOR == n);
    fk.tag = tag;
  }
  if (fk.flood) /* records without TLAST, more than S2MM's length */
    while (fk.nword <= fk.s2mm_len / 4 + HDLGEN_RESULT_WORDS) push_record(0, 0);
  for (i = 0; i + HDLGEN_BEATS_PER_VECTOR <= n; i += HDLGEN_BEATS_PER_VECTOR) {
    /* with the marker fault, the last vector arrives as a stray beat with
     * TLAST */
    int last = i + HDLGEN_BEATS_PER_VECTOR == n;
    if (last && fk.marker)
      push_marker();
    else
      push_record((src[i] & mask) % HDLGEN_L, last);
  }
  fk.mm2s_idle = 1;
  deliver();
  take();
  fk.stall = fk.stale = fk.surplus = fk.marker = fk.flood = 0;
}

static uint32_t status(int s2mm) {
  uint32_t v = 0;
  if (fk.halted) v |= 0x1u;
  if (s2mm && fk.hide_idle) return v;
  if (s2mm ? fk.s2mm_idle : fk.mm2s_idle) v |= 0x2u;
  if (s2mm && fk.s2mm_idle) v |= 0x1000u; /* IOC */
  return v;
}

uint32_t hdlgen_fake_read(int dev, uint32_t off) {
  size_t i;
  if (dev == 0) {
    for (i = 0; i < HDLGEN_ID_REGS; i++)
      if (hdlgen_id_regs[i].addr == off) return hdlgen_id_regs[i].want;
    if (off == HDLGEN_REG_BATCH) return fk.tag;
    if (off == HDLGEN_REG_CTRL) return fk.ctrl & HDLGEN_CTRL_IRQ_EN_MASK;
    if (off == HDLGEN_REG_STATUS) return fk.nword ? HDLGEN_STATUS_BUSY_MASK : 0;
    return 0;
  }
  switch (off) {
    case MM2S_DMACR:
      if (fk.reset_reads > 0 && --fk.reset_reads > 0) return 0x4u;
      return fk.running ? 0x1u : 0;
    case MM2S_DMASR:
    case S2MM_DMASR:
      if (fk.halted && fk.running && fk.halted_reads > 0 && --fk.halted_reads == 0) {
        fk.halted = 0;
        take();
      }
      return status(off == S2MM_DMASR);
    case S2MM_LENGTH: return fk.s2mm_len;
    default: return 0;
  }
}

/* hdlgen_fake_irq_wait is the backend's wait for the DMA's interrupt: it
 * comes at once, or with noirq never (the wait sleeps its ms); either way
 * S2MM's Idle shows from then on. */
int hdlgen_fake_irq_wait(int ms) {
  int irq = !fk.noirq;
  if (fk.noirq) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  fk.hide_idle = fk.noirq = 0;
  return irq;
}

void hdlgen_fake_write(int dev, uint32_t off, uint32_t v) {
  if (dev == 0) {
    if (off == HDLGEN_REG_BATCH) fk.tag = v & 0xFFu;
    if (off == HDLGEN_REG_CTRL) {
      fk.ctrl = v;
      if (v & HDLGEN_CTRL_FLUSH_MASK) { /* the data path's reset */
        fk.nword = 0;
        fk.seq = 0;
      }
    }
    return;
  }
  switch (off) {
    case MM2S_DMACR:
    case S2MM_DMACR:
      if (v & 0x4u) { /* reset: both channels halt, transfers and held words are dropped */
        fk.reset_reads = RESET_READS;
        fk.running = 0;
        fk.halted = 1;
        fk.armed = 0;
        fk.nheld = 0;
        fk.mm2s_idle = fk.s2mm_idle = 0;
      } else if ((v & 0x1u) && !fk.running) {
        fk.running = 1;
        fk.halted_reads = HALT_READS;
      }
      break;
    case MM2S_SA: fk.mm2s_sa = v; break;
    case S2MM_DA: fk.s2mm_da = v; break;
    case S2MM_LENGTH:
      if (fk.halted) fk.violations++;
      fk.s2mm_len = v;
      fk.armed_bytes = v;
      fk.armed = 1;
      fk.s2mm_idle = 0;
      deliver();
      break;
    case MM2S_LENGTH:
      if (fk.halted) fk.violations++;
      fk.mm2s_idle = 0;
      mm2s(v);
      break;
    default: break;
  }
}

/* ---- The scenarios ---- */
static double rows[200 * HDLGEN_K];

/* expect: the fake's class of row r. */
static int32_t expect(size_t r) {
  uint32_t in[HDLGEN_K];
  hdlgen_encode(rows + r * HDLGEN_K, in);
  return (int32_t)(in[0] % HDLGEN_L);
}

/* batch classifies n rows from first and checks them; it returns the status. */
static int batch(hdlgen_dev *dev, size_t first, size_t n, int *wrong) {
  int32_t cls[200], sc[200 * HDLGEN_L];
  size_t i, l;
  int rc = hdlgen_classify(dev, rows + first * HDLGEN_K, n, cls, sc, NULL);
  *wrong = 0;
  if (rc != HDLGEN_OK) return rc;
  for (i = 0; i < n; i++) {
    if (cls[i] != expect(first + i)) ++*wrong;
    for (l = 0; HDLGEN_SCORES && l < HDLGEN_L; l++)
      if (sc[i * HDLGEN_L + l] != cls[i] * 10 + (int32_t)l) ++*wrong;
  }
  return rc;
}

static long long now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000LL;
}

int main(int argc, char **argv) {
  hdlgen_dev *dev;
  int fd, rc, wrong, i, ok;
  size_t r, half, limit;
  long long t0, took;
  hdlgen_info info;
  if (argc != 4 && argc != 5) {
    fprintf(stderr, "usage: uio_check SPEC BUFFER_FILE PHYS [HOLD]\n");
    return 2;
  }
  fk.phys = strtoull(argv[3], NULL, 0);
  fk.hold = argc == 5 ? atoi(argv[4]) : 4;
  if (fk.hold < 0 || fk.hold > MAX_HOLD) return 2;
  fk.halted = 1;
  if ((fd = open(argv[2], O_RDWR)) < 0) return 2;
  fk.buf = (unsigned char *)mmap(NULL, 4 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (fk.buf == MAP_FAILED) return 2;
  srand(1);
  for (r = 0; r < 200 * HDLGEN_K; r++) rows[r] = (double)rand() / RAND_MAX * 1.2 - 0.1;
  if ((rc = hdlgen_open(&dev, argv[1])) != HDLGEN_OK) {
    printf("case open FAIL: %s\n", hdlgen_open_error());
    return 1;
  }
  hdlgen_info_get(dev, &info);

  ok = 1;
  for (i = 0; i < 3; i++) {
    size_t n = i == 0 ? 5 : (i == 1 ? 50 : 1);
    rc = batch(dev, (size_t)i * 50, n, &wrong);
    if (rc != HDLGEN_OK || wrong) {
      printf("case normal FAIL: batch %d: status %d, %d wrong (%s)\n", i, rc, wrong, hdlgen_error(dev));
      ok = 0;
    }
  }
  if (ok) printf("case normal ok\n");

  fk.stall = 1;
  t0 = now_ms();
  rc = batch(dev, 60, 7, &wrong);
  took = now_ms() - t0;
  if (rc != HDLGEN_E_TIMEOUT) printf("case stall FAIL: status %d, want a timeout (%s)\n", rc, hdlgen_error(dev));
  else if (batch(dev, 70, 7, &wrong) != HDLGEN_OK || wrong) printf("case stall FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case stall ok %lld ms\n", took);

  rc = batch(dev, 80, 6, &wrong);
  fk.stale = 1; /* results of another batch arrive after the call checked STATUS */
  if (rc != HDLGEN_OK || wrong) printf("case stale FAIL: the batch before: %d (%s)\n", rc, hdlgen_error(dev));
  else if ((rc = batch(dev, 90, 6, &wrong)) == HDLGEN_OK)
    printf("case stale FAIL: a batch returned OK with %d of 6 results wrong after stale results\n", wrong);
  else if (batch(dev, 100, 6, &wrong) != HDLGEN_OK || wrong) printf("case stale FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case stale ok\n");

  fk.surplus = 1;
  if ((rc = batch(dev, 110, 4, &wrong)) == HDLGEN_OK) printf("case surplus FAIL: OK with %d wrong\n", wrong);
  else if (batch(dev, 120, 4, &wrong) != HDLGEN_OK || wrong) printf("case surplus FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case surplus ok\n");

  fk.marker = 1;
  if ((rc = batch(dev, 130, 4, &wrong)) == HDLGEN_OK) printf("case marker FAIL: OK with %d wrong\n", wrong);
  else if (batch(dev, 140, 4, &wrong) != HDLGEN_OK || wrong) printf("case marker FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case marker ok\n");

  fk.hide_idle = 1; /* the batch ends with the interrupt */
  if ((rc = batch(dev, 140, 4, &wrong)) != HDLGEN_OK || wrong) printf("case irq FAIL: %d, %d wrong (%s)\n", rc, wrong, hdlgen_error(dev));
  else printf("case irq ok\n");

  fk.hide_idle = fk.noirq = 1; /* S2MM finishes, its interrupt never comes */
  if ((rc = batch(dev, 145, 4, &wrong)) != HDLGEN_E_TIMEOUT || !strstr(hdlgen_error(dev), "interrupt never came"))
    printf("case noirq FAIL: status %d, want a timeout naming the interrupt (%s)\n", rc, hdlgen_error(dev));
  else if (batch(dev, 150, 4, &wrong) != HDLGEN_OK || wrong) printf("case noirq FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case noirq ok\n");

  fk.flood = 1;
  if ((rc = batch(dev, 150, 4, &wrong)) == HDLGEN_OK) printf("case flood FAIL: OK with %d wrong\n", wrong);
  else if (batch(dev, 160, 4, &wrong) != HDLGEN_OK || wrong) printf("case flood FAIL: the next batch: %s\n", hdlgen_error(dev));
  else printf("case flood ok\n");

  /* Three vectors sent without receiving leave their results in the system
   * (the DataMover takes what it holds); a flush drops them all. */
  {
    uint32_t el[HDLGEN_K], beats[3 * HDLGEN_BEATS_PER_VECTOR];
    for (r = 0; r < 3; r++) {
      hdlgen_encode(rows + (170 + r) * HDLGEN_K, el);
      hdlgen_pack(el, beats + r * HDLGEN_BEATS_PER_VECTOR);
    }
    if ((rc = hdlgen_send(dev, beats, 3 * HDLGEN_BEATS_PER_VECTOR)) != HDLGEN_OK)
      printf("case flush FAIL: send: %s\n", hdlgen_error(dev));
    else if ((rc = hdlgen_flush(dev)) != HDLGEN_OK)
      printf("case flush FAIL: flush: %s\n", hdlgen_error(dev));
    else if ((rc = batch(dev, 180, 5, &wrong)) != HDLGEN_OK || wrong)
      printf("case flush FAIL: the batch after the flush: status %d, %d wrong (%s)\n", rc, wrong, hdlgen_error(dev));
    else
      printf("case flush ok\n");
  }

  /* Results left by a send (in the system and the DataMover): the next
   * batch flushes them first and is right. */
  {
    uint32_t el[HDLGEN_K], beats[3 * HDLGEN_BEATS_PER_VECTOR];
    for (r = 0; r < 3; r++) {
      hdlgen_encode(rows + (185 + r) * HDLGEN_K, el);
      hdlgen_pack(el, beats + r * HDLGEN_BEATS_PER_VECTOR);
    }
    if ((rc = hdlgen_send(dev, beats, 3 * HDLGEN_BEATS_PER_VECTOR)) != HDLGEN_OK)
      printf("case leftover FAIL: send: %s\n", hdlgen_error(dev));
    else if ((rc = batch(dev, 190, 5, &wrong)) != HDLGEN_OK || wrong)
      printf("case leftover FAIL: the batch after the send: status %d, %d wrong (%s)\n", rc, wrong, hdlgen_error(dev));
    else
      printf("case leftover ok\n");
  }

  /* S2MM is armed with the result half of the 4 MiB buffer, cut to what
   * its length register holds. */
  half = ((size_t)2 << 20) & ~(size_t)63;
  limit = (((size_t)1 << HDLGEN_DMA_LENGTH_BITS) - 1) & ~(size_t)63;
  if (half > limit) half = limit;
  if (fk.armed_bytes != half)
    printf("case armed FAIL: S2MM armed with %u bytes, want the result half, %zu\n", fk.armed_bytes, half);
  else if (info.max_batch * HDLGEN_RESULT_WORDS * 4 >= half)
    printf("case armed FAIL: a batch of %zu results fills the %zu-byte result half\n", info.max_batch, half);
  else
    printf("case armed ok %u bytes\n", fk.armed_bytes);
  if (fk.violations) printf("case halted FAIL: %d lengths programmed while a channel was halted\n", fk.violations);
  else printf("case halted ok\n");
  hdlgen_close(dev);
  return 0;
}

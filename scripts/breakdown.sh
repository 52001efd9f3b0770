#!/usr/bin/env bash
# breakdown.sh WORK — where the median designs' cells are, instance by instance:
# `hdlgen synth DIR --by-module` on the P = 1 and P = 8 designs (the rvfl8
# at P = 8 with its ROMs in block RAM, the lean baseline, the lean cores of
# both networks at P = 1 and P = 8, and the lean intRVFL at P = 8 with its ROMs
# left to Yosys) that
# `hdlgen power median-table --work WORK` emitted and synthesised, as Markdown
# (results/hardware/breakdown.md), next to issue 14's hand-written references.
# Needs hdlgen on PATH (or HDLGEN=path/to/hdlgen).
set -euo pipefail
work=${1:?usage: scripts/breakdown.sh WORK (the --work directory of hdlgen power median-table)}
hdlgen=${HDLGEN:-hdlgen}
cat <<HEAD
# Median designs, cells by instance

Made by \`scripts/breakdown.sh WORK\` on $(date -u +%Y-%m-%d) after
\`hdlgen power median-table --data ../shared/uci121 --variant default:intrvfl=1,8,16,32 --variant default:rvfl8=1,4,8 --variant rvfl8-block=4,8 --variant int-block=8,16 --variant lean=1,8 --variant lean-lut=1,8 --work WORK\`
(the designs of [median.md](median.md)): each row is \`hdlgen synth DIR --by-module\`, the cells of the
flattened Yosys netlist attributed to the instance that drives them (docs/energy-model.md, "Where the cells are").
$(yosys -V 2>/dev/null || true).

Issue 14's hand-written references of the same function: intRVFL P=1 524 LUT cells / 288 FF, P=8
1,682 / 591; rvfl8 P=1 348 / 56, P=8 3,681 / 1,603.
HEAD
for d in median_intrvfl_p1 median_intrvfl_p8 median_rvfl8_p1 median_rvfl8_p8 median_rvfl8_p8_block \
  median_intrvfl_p1_lean median_intrvfl_p8_lean median_rvfl8_p1_lean median_rvfl8_p8_lean median_intrvfl_p8_lean_lut; do
  dir="$work/$d"
  [[ -d "$dir" ]] || { echo "breakdown.sh: no design $dir (run hdlgen power median-table --work $work first)" >&2; exit 1; }
  printf '\n## %s\n\n' "$d"
  "$hdlgen" synth "$dir" --by-module 2>/dev/null | sed -n '/^| instance/,$p'
done

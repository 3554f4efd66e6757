#!/usr/bin/env bash
# Snapshot the outputs of the `overtalk` binary, so a refactor can be checked byte for byte:
#
#   scripts/snapshot_outputs.sh OUT_DIR [BINARY]     # BINARY: default target/release/overtalk
#   scripts/snapshot_outputs.sh /tmp/before && (change, rebuild) &&
#   scripts/snapshot_outputs.sh /tmp/after && diff -r /tmp/before /tmp/after
#
# Each run writes OUT_DIR/<group>/<name>.out (stdout), .err (stderr) and .rc (exit status).
# Inputs: the AMI reference RTTMs (one run per file and one corpus run per split), VoxConverse
# dev/test, the red-carpet example, the scoring fixtures, the VBx outputs on AMI and the real
# recordings ($OVERTALK_SHARED_DATA, default /work/shared/data). Paths are passed as they are,
# so compare snapshots taken from the same checkout with the same data directory.
set -euo pipefail

out=${1:?usage: snapshot_outputs.sh OUT_DIR [BINARY]}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "${2:-$root/target/release/overtalk}")
data=${OVERTALK_SHARED_DATA:-/work/shared/data}
ami=$data/corpora/ami/only_words/rttms
vox=$data/corpora/voxconverse
fix=$data/scoring-fixtures
vbx=$data/system-outputs/vbx-ami
ex=examples/red-carpet
cd "$root"   # the example is named by a relative path, as a user would
mkdir -p "$out"

# run GROUP NAME ARGS…: one invocation of the binary, recorded under OUT_DIR/GROUP/NAME.
run() {
    local dir=$out/$1 name=$2
    shift 2
    mkdir -p "$dir"
    local rc=0
    "$bin" "$@" >"$dir/$name.out" 2>"$dir/$name.err" || rc=$?
    echo "$rc" >"$dir/$name.rc"
}

# analyze_all GROUP NAME INPUT…: every analyze format of the same inputs.
analyze_all() {
    local group=$1 name=$2
    shift 2
    run "$group" "$name.table" analyze "$@"
    for f in json jsonl csv tsv md; do run "$group" "$name.$f" analyze --format "$f" "$@"; done
    run "$group" "$name.speakers.csv" analyze --format csv --events speakers "$@"
}

# The example: every format, every CSV event list, a preset, the classifier, timing only.
for input in $ex/red-carpet.rttm $ex/red-carpet.vtt; do
    n=$(basename "$input")
    analyze_all example "$n" "$input"
    for e in onsets intervals turns transfers speakers; do
        run example "$n.$e.csv" analyze --format csv --events "$e" "$input"
    done
    run example "$n.he2010.md" analyze --format md --preset he2010 "$input"
    run example "$n.rules.json" analyze --format json --classifier rules "$input"
    run example "$n.timing-only.table" analyze --timing-only "$input"
    run example "$n.report.html" report "$input"
    run example "$n.html" analyze --format html "$input"
    run example "$n.info" info "$input"
    run example "$n.info.json" info --format json "$input"
done
analyze_all example both $ex/red-carpet.rttm $ex/red-carpet.vtt
run example schema schema
run example validate validate $ex/red-carpet.rttm
run example validate.json validate --format json $ex/red-carpet.rttm

# AMI: each reference on its own (in parallel), and each split as one corpus.
export -f run analyze_all
export out bin
for split in train dev test; do
    analyze_all ami-corpus "$split" "$ami/$split"
    run ami-corpus "$split.info" info "$ami/$split"
    run ami-corpus "$split.info.md" info --format md "$ami/$split"
done
ls "$ami"/{train,dev,test}/*.rttm | xargs -P 2 -I{} bash -c \
    'analyze_all ami "$(basename {} .rttm)" {}'
run ami validate.json validate --format json "$ami"/test/*.rttm
run ami validate validate "$ami"/dev/*.rttm

# VoxConverse dev and test.
for split in dev test; do
    analyze_all vox-corpus "$split" "$vox/$split"
    run vox-corpus "$split.info.tsv" info --format tsv "$vox/$split"
done
ls "$vox"/{dev,test}/*.rttm | xargs -P 2 -I{} bash -c \
    'analyze_all vox "$(basename {} .rttm)" {}'

# Scoring fixtures: every reference/hypothesis pair (with its UEM when it has one), every
# output format and preset, as the conformance test drives them.
score_all() {
    local name=$1
    shift
    run score "$name.table" score "$@"
    for f in json csv tsv md; do run score "$name.$f" score --format "$f" "$@"; done
    run score "$name.errors.json" score --format json --errors "$@"
    run score "$name.der-only" score --der-only "$@"
    run score "$name.collar" score --collar 0.25 --skip-overlap "$@"
    for p in md-eval dscore pyannote spyder; do run score "$name.$p" score --preset "$p" "$@"; done
}
score_all dscore -r $fix/dscore-tests/ref.rttm -s $fix/dscore-tests/sys.rttm
score_all dscore-uem -r $fix/dscore-tests/ref.rttm -s $fix/dscore-tests/sys.rttm -u $fix/dscore-tests/test_load.uem
score_all spyder -r $fix/spyder-tests/ref.rttm -s $fix/spyder-tests/hyp.rttm
score_all spyder-uem -r $fix/spyder-tests/ref.rttm -s $fix/spyder-tests/hyp.rttm -u $fix/spyder-tests/ref.uem
score_all vbx-example -r $fix/vbx-example/ES2005a.ref.rttm -s $fix/vbx-example/ES2005a.sys.rttm
score_all pyannote -r $fix/pyannote-tests/reference.rttm -s $fix/pyannote-tests/hypothesis.rttm
score_all pyannote-overlap -r $fix/pyannote-tests/reference_with_overlap.rttm -s $fix/pyannote-tests/hypothesis.rttm
score_all pyannote-bug16 -r $fix/pyannote-tests/bug16_reference.rttm -s $fix/pyannote-tests/bug16_hypothesis.rttm
score_all pyannote-file2 -r $fix/pyannote-tests/docs_file2_reference.rttm -s $fix/pyannote-tests/docs_file2_hypothesis.rttm
score_all pyannote-file1-uem -r $fix/pyannote-tests/reference.rttm -s $fix/pyannote-tests/hypothesis.rttm -u $fix/pyannote-tests/docs_uem_file1.uem
score_all uttr0 -r $fix/spyder-readme/uttr0_ref.rttm -s $fix/spyder-readme/uttr0_hyp.rttm
score_all uttr0-uem -r $fix/spyder-readme/uttr0_ref.rttm -s $fix/spyder-readme/uttr0_hyp.rttm -u $fix/spyder-readme/uttr0_uem_0.5_5.0.uem
score_all uttr2 -r $fix/spyder-readme/uttr2_ref.rttm -s $fix/spyder-readme/uttr2_hyp.rttm
score_all S1-uem -r $fix/meeteval-doctests/S1_ref.rttm -s $fix/meeteval-doctests/S1_hyp.rttm -u $fix/meeteval-doctests/S1.uem
score_all rec -r $fix/meeteval-doctests/rec_ref.rttm -s $fix/meeteval-doctests/rec_hyp.rttm
score_all rec.a-uem -r $fix/meeteval-doctests/rec.a_ref.rttm -s $fix/meeteval-doctests/rec.a_hyp.rttm -u $fix/meeteval-doctests/rec.a.uem
for d in $fix/edge-cases/*/; do
    uem=()
    [ -e "$d/f1.uem" ] && uem=(-u "$d/f1.uem")
    score_all "$(basename "$d")" -r "$d/ref.rttm" -s "$d/hyp.rttm" "${uem[@]}"
    run validate "$(basename "$d").json" validate --format json "$d/ref.rttm" "$d/hyp.rttm"
done
run score html score --format html -r $fix/dscore-tests/ref.rttm -s $fix/dscore-tests/sys.rttm
run validate fixtures validate $fix/dscore-tests/ref.rttm $fix/spyder-tests/hyp.rttm $fix/pyannote-tests/bug16_reference.rttm
run validate fixtures-uem validate --uem $fix/dscore-tests/test_load.uem $fix/dscore-tests/ref.rttm
run info fixtures info $fix/dscore-tests/ref.rttm $fix/pyannote-tests/reference.rttm
run info fixtures-uem info --format json --uem $fix/spyder-tests/ref.uem $fix/spyder-tests/ref.rttm

# VBx on AMI against the references, per split and beamforming.
for kind in AMI_Mix-Headset AMI_beamformed; do
    for split in dev test; do
        n=vbx-$kind-$split
        run score "$n.table" score -r "$ami/$split" -s "$vbx/$kind/$split" --collar 0.25 --skip-overlap
        run score "$n.json" score --format json -r "$ami/$split" -s "$vbx/$kind/$split" --collar 0.25 --skip-overlap
        run score "$n.csv.0" score --format csv -r "$ami/$split" -s "$vbx/$kind/$split"
        run score "$n.md.dscore" score --format md --preset dscore -r "$ami/$split" -s "$vbx/$kind/$split"
    done
done
# Detection from the real recordings (the 10 ms audio grid): the AMI ES2004a close-talk tracks
# by the multitrack rule, the mixed 30 s excerpts diarized (with whatever speaker model is
# installed; without one, voice activity alone), and a score of tracks against the reference.
audio=$data/real-audio
mt=$audio/ami-es2004a-multitrack
tracks=(--track A="$mt/source0.wav" --track B="$mt/source1.wav" --track C="$mt/source2.wav" --track D="$mt/source3.wav")
run detect es2004a.tracks.rttm detect "${tracks[@]}"
run detect es2004a.mixture.rttm detect "$mt/mixture.wav"
run detect es2004a.mixture.no-diarize.rttm detect --no-diarize "$mt/mixture.wav"
run detect es2004a.tracks.score score -r "$mt/mixture.ref.rttm" "${tracks[@]}" --recording-id mixture
for wav in "$audio"/ami-30s-excerpts/*.wav; do
    run detect "$(basename "$wav" .wav).rttm" detect "$wav"
done
echo "snapshot in $out: $(find "$out" -name '*.out' | wc -l) runs"

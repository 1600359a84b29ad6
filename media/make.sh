#!/usr/bin/env bash
# Regenerates the demo channels served by the built-in live origin (src/server/origin).
# Needs ffmpeg built with libx264 and libfreetype (Debian's ffmpeg package is) and Node.js
# (any version; set NODE to pick one).
set -euo pipefail
cd "$(dirname "$0")"

FONT="${FONT:-/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf}"
LOOP=12   # seconds per loop: 6 segments of 2 s
SEG=2
PART=0.4        # low-latency part length in seconds
PART_FRAMES=10  # the same at 25 fps
NODE="${NODE:-node}"

# make_channel <dir> <label> <lavfi video source> <tone Hz> <label x expression>
make_channel() {
  local dir="$1" label="$2" source="$3" tone="$4" x="$5"
  rm -rf "$dir" && mkdir -p "$dir"

  # A keyframe every 10 frames (0.4 s at 25 fps) lets each 2 s segment be cut into five
  # low-latency parts that each start on an IDR. The frame-number expression is exact where a
  # time expression is not: n_forced*0.4 drifts above the frame time in floating point and then
  # forces a second IDR one frame late. Scene-cut keyframes are off so positions never drift.
  # No B-frames keeps PTS == DTS. The TS muxer repeats PAT/PMT before every keyframe, which is
  # what makes each part decodable on its own. The AAC encoder emits one priming frame 1024
  # samples before its input, so the tone is delayed by exactly that much to make audio start
  # with the video, and 562 frames (11.989 s) keep the audio from overrunning the 12 s loop:
  # audio that spills past the video end makes hls.js push every following loop a little
  # later, and a live player would drift ~20 ms per loop behind the playlist.
  ffmpeg -hide_banner -loglevel error -y \
    -f lavfi -i "${source}=size=640x360:rate=25:duration=${LOOP}" \
    -f lavfi -i "sine=frequency=${tone}:sample_rate=48000:duration=${LOOP}" \
    -filter_complex "[0:v]drawtext=fontfile=${FONT}:text='${label}':fontsize=44:fontcolor=white:box=1:boxcolor=black@0.6:boxborderw=14:x=${x}:y=h-th-40,format=yuv420p[v];[1:a]asetpts=PTS+1024/(SR*TB)[a]" \
    -map "[v]" -map "[a]" -frames:a 562 \
    -c:v libx264 -profile:v main -level:v 3.1 -preset slow -crf 30 -maxrate 700k -bufsize 1400k \
    -bf 0 -force_key_frames "expr:gte(n,n_forced*${PART_FRAMES})" \
    -x264-params "scenecut=0:keyint=${PART_FRAMES}:min-keyint=${PART_FRAMES}" \
    -c:a aac -b:a 64k -ac 2 -ar 48000 \
    -muxdelay 0 -muxpreload 0 \
    -f segment -segment_time "$SEG" -segment_format mpegts -initial_offset 10 -reset_timestamps 0 \
    "$dir/seg%d.ts"

  # Segment durations and part byte ranges come from the files themselves; the script refuses
  # media whose parts would not start on a keyframe with PAT/PMT or would split a PES.
  "$NODE" manifest.mjs "$dir" "$label" "$PART"
}

make_channel demo1 "Demo 1" testsrc2 1000 "40"
# The label sways with a 6 s period, so it lines up with itself at the 12 s loop point.
make_channel demo2 "Demo 2" smptebars 440 "(w-tw)/2+(w/3)*sin(2*PI*t/6)"

du -sh . && cat demo1/segments.json demo2/segments.json

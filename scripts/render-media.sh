#!/usr/bin/env bash
# Regenerates the looping, muted videos and their posters in src/client/public/media/video from
# scratch. Everything is procedural and original:
#   hero.mp4 / hero.webm / hero-poster.webp (960x540, 8 s): a full-size keyboard drawn in
#     perspective (awk -> SVG -> rsvg-convert) whose key rims are lit by an animated RGB wave
#     field computed by ffmpeg's geq filter, plus bloom.
#   product.mp4 / product.webm / product-poster.webp (800x600, 6 s): an ARGB case fan whose rotor
#     is turned by ffmpeg's rotate filter while the lighting pulses and shifts hue.
# Both clips loop seamlessly (every time term is periodic in the clip length), are 24 fps, have no
# audio track, and are encoded as H.264 (yuv420p, +faststart) and VP9.
#
# Needs: bash, awk, ffmpeg built with libx264, libvpx-vp9 and libwebp (Debian's ffmpeg is), and
# rsvg-convert (Debian package librsvg2-bin). Run from anywhere: scripts/render-media.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT="$ROOT/src/client/public/media/video"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
for tool in ffmpeg rsvg-convert awk; do
  command -v "$tool" >/dev/null || { echo "render-media: '$tool' is required" >&2; exit 1; }
done
mkdir -p "$OUT"
FF=(ffmpeg -hide_banner -loglevel error -nostdin -y)
H264=(-an -map_metadata -1 -c:v libx264 -preset slow -crf 26 -profile:v high -pix_fmt yuv420p -g 48 -movflags +faststart)
VP9=(-an -map_metadata -1 -c:v libvpx-vp9 -b:v 0 -crf 40 -pix_fmt yuv420p -row-mt 1 -deadline good -cpu-used 2 -g 96)
WEBP=(-frames:v 1 -map_metadata -1 -c:v libwebp -quality 80 -compression_level 6)

# ------------------------------------------------------------------------------------------ hero
# Keyboard layout, one row per line: "y token...": N = key N units wide, NxM = M keys of width N,
# Nt = key N wide and 2 rows tall, -N = gap of N units.
cat >"$TMP/rows.txt" <<'EOF'
0 1 -1 1x4 -.5 1x4 -.5 1x4 -.25 1x3
1.25 1x13 2 -.25 1x3 -.25 1x4
2.25 1.5 1x12 1.5 -.25 1x3 -.25 1x3 1t
3.25 1.75 1x11 2.25 -3.5 1x3
4.25 2.25 1x10 2.75 -1.25 1 -1.25 1x3 1t
5.25 1.25 1.25 1.25 6.25 1.25 1.25 1.25 1.25 -.25 1x3 -.25 2 1
EOF
# Projects the layout onto a tilted plane (pinhole camera with a slight yaw) as SVG paths.
cat >"$TMP/kb.awk" <<'EOF'
function proj(px, py,   u, v, X, D, Z) {
  u = px - 11.25; v = 3.125 - py
  X = u * ct - v * st; D = u * st + v * ct; Z = zc + D
  return sprintf("%.1f %.1f", cx + F * X / Z, hy + G / Z)
}
function quad(x, y, w, h) {
  return "M" proj(x, y) "L" proj(x + w, y) "L" proj(x + w, y + h) "L" proj(x, y + h) "Z"
}
BEGIN { th = yaw * 3.14159265 / 180; ct = cos(th); st = sin(th); g = 0.09 }
{
  y = $1; x = 0
  for (i = 2; i <= NF; i++) {
    t = $i
    if (t ~ /^-/) { x += -t; continue }
    n = 1; h = 1
    if (t ~ /x/) { split(t, a, "x"); t = a[1]; n = a[2] }
    if (t ~ /t$/) { sub(/t$/, "", t); h = 2 }
    for (j = 0; j < n; j++) {
      keys = keys quad(x + g, y + g, t - 2 * g, h - 2 * g)
      x += t
    }
  }
}
END {
  print "<path id=\"case\" d=\"" quad(-0.55, -0.55, 23.6, 7.35) "\"/>"
  print "<path id=\"keys\" d=\"" keys "\"/>"
}
EOF
awk -v yaw=-9 -v zc=20 -v cx=470 -v F=1050 -v G=13500 -v hy=-380 -f "$TMP/kb.awk" "$TMP/rows.txt" >"$TMP/kb.frag"
svg960() { printf '<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540" viewBox="0 0 960 540"><defs>%s%s</defs>%s</svg>\n' "$(cat "$TMP/kb.frag")" "$1" "$2"; }
# Unlit keyboard on the dark background.
svg960 '<linearGradient id="cg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1a2030"/><stop offset="1" stop-color="#0e121c"/></linearGradient>' \
  '<rect width="960" height="540" fill="#0b0f19"/><use href="#case" fill="#05070c" transform="translate(0 14)"/><use href="#case" fill="url(#cg)" stroke="#2b3346" stroke-width="2" stroke-linejoin="round"/><use href="#keys" fill="#1b2232" stroke="#0a0d15" stroke-width="1.5" stroke-linejoin="round"/>' \
  >"$TMP/kb-base.svg"
# Where light shows: bright key rims and case edge, dim key faces.
svg960 '' \
  '<rect width="960" height="540" fill="#000"/><use href="#case" fill="none" stroke="#b0b0b0" stroke-width="3" stroke-linejoin="round"/><use href="#keys" fill="#2c2c2c" stroke="#fff" stroke-width="2.2" stroke-linejoin="round"/>' \
  >"$TMP/kb-mask.svg"
rsvg-convert "$TMP/kb-base.svg" -o "$TMP/kb-base.png"
rsvg-convert "$TMP/kb-mask.svg" -o "$TMP/kb-mask.png"

# RGB wave field for one channel: a colour cycle pink -> purple -> cyan drifting across the frame
# (period 8 s), times a travelling light band and a ripple from the space bar (period 4 s).
wave() {
  local v0 v1 v2
  case $1 in
    r) v0=255 v1=124 v2=34 ;;
    g) v0=45 v1=58 v2=211 ;;
    b) v0=149 v1=237 v2=238 ;;
  esac
  printf '%s' "st(0,3*mod(X/W*0.9+Y/H*0.3-T/8+10,1));st(1,floor(ld(0)));st(2,ld(0)-ld(1));st(2,ld(2)*ld(2)*(3-2*ld(2)));" \
    "st(3,0.5+0.5*cos(2*PI*(X/W*1.1-Y/H*0.35-T/4)));st(4,0.5+0.5*cos(2*PI*(hypot(X-W*0.47,(Y-H*0.8)*1.6)/W*1.6-T/4)));" \
    "st(5,0.22+0.55*ld(3)*ld(3)+0.4*pow(ld(4),6));" \
    "clip(ld(5)*if(eq(ld(1),0),$v0+($v1-$v0)*ld(2),if(eq(ld(1),1),$v1+($v2-$v1)*ld(2),$v2+($v0-$v2)*ld(2))),0,255)"
}
echo "render-media: hero (960x540, 8 s)"
"${FF[@]}" -loop 1 -framerate 24 -i "$TMP/kb-base.png" -loop 1 -framerate 24 -i "$TMP/kb-mask.png" \
  -f lavfi -i "color=black:s=320x180:r=24,format=gbrp,geq=r='$(wave r)':g='$(wave g)':b='$(wave b)',scale=960:540:flags=bicubic" \
  -filter_complex "[0]format=gbrp[base];[1]format=gbrp[m];[2][m]blend=all_mode=multiply,split=3[l1][l2][l3];[l2]gblur=sigma=5[g1];[l3]gblur=sigma=45,colorchannelmixer=rr=1.7:gg=1.7:bb=1.7[g2];[base][l1]blend=all_mode=addition[a];[a][g1]blend=all_mode=screen[b];[b][g2]blend=all_mode=screen,format=rgb24[o]" \
  -map "[o]" -t 8 -c:v ffv1 "$TMP/hero.mkv"
"${FF[@]}" -i "$TMP/hero.mkv" "${H264[@]}" "$OUT/hero.mp4"
"${FF[@]}" -i "$TMP/hero.mkv" "${VP9[@]}" "$OUT/hero.webm"
"${FF[@]}" -i "$TMP/hero.mkv" "${WEBP[@]}" "$OUT/hero-poster.webp"

# --------------------------------------------------------------------------------------- product
# Three layers: a static backdrop, the housing (frame, ARGB ring, glow) whose light pulses and
# shifts hue, and the rotor (7 blades + hub) that turns 3/7 of a revolution per 6 s loop, which
# lands exactly on the starting position because the rotor has 7-fold symmetry.
cat >"$TMP/fan-bg.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600"><defs><pattern id="d" width="24" height="24" patternUnits="userSpaceOnUse"><circle cx="12" cy="12" r="1.3" fill="#1b2334"/></pattern><radialGradient id="g"><stop offset="0" stop-color="#7c3aed" stop-opacity="0.3"/><stop offset="1" stop-color="#7c3aed" stop-opacity="0"/></radialGradient><filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="14"/></filter></defs><rect width="800" height="600" fill="#0b0f19"/><rect width="800" height="600" fill="url(#d)"/><ellipse cx="400" cy="300" rx="380" ry="290" fill="url(#g)"/><ellipse cx="400" cy="560" rx="250" ry="20" fill="#000" opacity=".6" filter="url(#s)"/></svg>
EOF
cat >"$TMP/fan-housing.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600"><defs><linearGradient id="fg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff2d95"/><stop offset="0.5" stop-color="#7c3aed"/><stop offset="1" stop-color="#22d3ee"/></linearGradient><linearGradient id="ffr" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#2a2c33"/><stop offset="1" stop-color="#141519"/></linearGradient><radialGradient id="fhb" cx=".4" cy=".35"><stop offset="0" stop-color="#3a4359"/><stop offset="1" stop-color="#0f131e"/></radialGradient><filter id="fb" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="12"/></filter><filter id="fB" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="30"/></filter><path id="fbl" d="M54.6 0Q126 29.8 151.3 118.2Q87.7 177.5 29.9 185.6Q68.4 95.1 40.1 37.2Z"/></defs><g transform="translate(400 300)"><rect x="-220" y="-220" width="440" height="440" rx="52.8" fill="url(#fg)" filter="url(#fB)" opacity=".45"/><rect x="-220" y="-220" width="440" height="440" rx="44" fill="url(#ffr)" stroke="#39425a" stroke-width="2"/><circle cx="-182.6" cy="-182.6" r="11" fill="#05070c" stroke="#4a5570" stroke-width="2"/><circle cx="182.6" cy="-182.6" r="11" fill="#05070c" stroke="#4a5570" stroke-width="2"/><circle cx="-182.6" cy="182.6" r="11" fill="#05070c" stroke="#4a5570" stroke-width="2"/><circle cx="182.6" cy="182.6" r="11" fill="#05070c" stroke="#4a5570" stroke-width="2"/><circle r="202" fill="#06080e"/><circle r="206" fill="none" stroke="url(#fg)" stroke-width="12" filter="url(#fb)"/><circle r="206" fill="none" stroke="url(#fg)" stroke-width="6"/><path d="M-134.6 -134.6L134.6 134.6M-134.6 134.6L134.6 -134.6" stroke="#161b28" stroke-width="10"/></g></svg>
EOF
cat >"$TMP/fan-rotor.svg" <<'EOF'
<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600"><defs><linearGradient id="fg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff2d95"/><stop offset="0.5" stop-color="#7c3aed"/><stop offset="1" stop-color="#22d3ee"/></linearGradient><linearGradient id="ffr" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="#2a2c33"/><stop offset="1" stop-color="#141519"/></linearGradient><radialGradient id="fhb" cx=".4" cy=".35"><stop offset="0" stop-color="#3a4359"/><stop offset="1" stop-color="#0f131e"/></radialGradient><filter id="fb" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="12"/></filter><filter id="fB" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="30"/></filter><path id="fbl" d="M54.6 0Q126 29.8 151.3 118.2Q87.7 177.5 29.9 185.6Q68.4 95.1 40.1 37.2Z"/></defs><g transform="translate(400 300)"><g fill="url(#fg)" fill-opacity="0.55" stroke="#ffffff" stroke-opacity=".35" stroke-width="1.5"><use href="#fbl" transform="rotate(0)"/><use href="#fbl" transform="rotate(51.4)"/><use href="#fbl" transform="rotate(102.9)"/><use href="#fbl" transform="rotate(154.3)"/><use href="#fbl" transform="rotate(205.7)"/><use href="#fbl" transform="rotate(257.1)"/><use href="#fbl" transform="rotate(308.6)"/></g><circle r="59.4" fill="url(#fhb)" stroke="#4a5570" stroke-width="2"/><circle r="32.7" fill="none" stroke="url(#fg)" stroke-width="5"/></g></svg>
EOF
for layer in bg housing rotor; do rsvg-convert "$TMP/fan-$layer.svg" -o "$TMP/fan-$layer.png"; done
echo "render-media: product (800x600, 6 s)"
"${FF[@]}" -loop 1 -framerate 24 -i "$TMP/fan-bg.png" -loop 1 -framerate 24 -i "$TMP/fan-housing.png" -loop 1 -framerate 24 -i "$TMP/fan-rotor.png" \
  -filter_complex "[1]format=yuva444p,hue=H='1.1*sin(2*PI*t/6)':b='1.2*sin(2*PI*t/3)'[h];[2]format=rgba,rotate=a='2*PI*3/7*t/6':c=none,format=yuva444p,hue=H='1.1*sin(2*PI*t/6)'[r];[0]format=yuv444p[b];[b][h]overlay=format=yuv444[bh];[bh][r]overlay=format=yuv444,format=rgb24[o]" \
  -map "[o]" -t 6 -c:v ffv1 "$TMP/product.mkv"
"${FF[@]}" -i "$TMP/product.mkv" "${H264[@]}" "$OUT/product.mp4"
"${FF[@]}" -i "$TMP/product.mkv" "${VP9[@]}" "$OUT/product.webm"
"${FF[@]}" -i "$TMP/product.mkv" "${WEBP[@]}" "$OUT/product-poster.webp"

# ------------------------------------------------------------------------------------ size budget
status=0
check() { # file, max bytes
  local size
  size=$(wc -c <"$OUT/$1")
  printf 'render-media: %-20s %7d bytes (max %d)\n' "$1" "$size" "$2"
  if ((size > $2)); then echo "render-media: $1 is over budget" >&2; status=1; fi
}
check hero.mp4 716800
check hero.webm 716800
check product.mp4 512000
check product.webm 512000
check hero-poster.webp 61440
check product-poster.webp 61440
exit "$status"

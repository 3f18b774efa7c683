#!/usr/bin/env bash
# Regenerates the README's pictures with ropelab's own headless export. Look at them before
# committing.
set -euo pipefail
cd "$(dirname "$0")/.."
out=docs/screenshots
mkdir -p "$out"
r() { build/ropelab render --size 1280x720 "$@"; }
r --view all --position 40 --out "$out/lab.png"   # the first look: the Overview workspace
# The README's vector figures: the score view as SVG, the whole lab (every view) as PDF.
r --view scores --preset llama3.1-8b --out "$out/scores.svg"
r --view all --workspace all --out "$out/lab.pdf"
# Each workspace as it opens (Ctrl+2 … 7).
for w in rotation distance frequencies attention images all; do
    r --view all --workspace "$w" --position 40 --out "$out/workspace-$w.png"
done
r --view planes --position 40 --pair 3 --out "$out/view1-planes.png"
r --view contrast --position 40 --vectors random --out "$out/view2-contrast.png"
r --view scores --max-distance 65536 --log-distance --vectors mean --out "$out/view3-scores.png"
r --view invariance --position 200 --vectors random --out "$out/view4-invariance.png"
r --view heatmap --position 3 --preset llama3-8b --out "$out/view5-heatmap.png"
r --view frequencies --preset llama3.1-8b --pair 30 --out "$out/view6-frequencies.png"
r --view numbers --position 3 --pair 2 --head-dim 512 --out "$out/view7-numbers.png"
r --view precision --position 1000000 --pair 1 --out "$out/view8-precision.png"
r --view phasors --preset textbook --vectors custom --q random:7 --k random:7 --key-distance 60 --pair 5 \
    --out "$out/view9-phasors.png"
r --theme projector --workspace all --out "$out/projector.png"
# Why the score decays: the phasor sum beside the score curve, the key distance swept 0 → 400.
build/ropelab render --lesson docs/lessons/phasor-sum.json --out "$out/phasors.gif" --size 960x440 --fps 12
r --view scores --ui-scale 2 --theme light --vectors random --out "$out/lecture-light-2x.png"
build/ropelab render --view planes --size 560x315 --frames 60 --fps 20 --animate position \
    --from 0 --to 60 --pair 2 --out "$out/planes.gif"
build/ropelab render --lesson builtin --scene 7 --size 1280x720 --out "$out/presenting.png"
r --view all --workspace all --spotlight 3 --laser 0.84,0.25 --out "$out/presenter-aids.png"
r --view all --workspace all --rope-theta 1.0001 --out "$out/degenerate-theta.png"
# Compare mode: four of the built-in comparisons (the golden images' settings), and two views large.
for c in llama3.1-scaling gemma3-layers llama2-vs-llama3 interleaved-vs-half; do
    r --comparison "$c" --view all --workspace all --out "$out/compare-$c.png"
done
r --comparison llama3.1-scaling --view scores --out "$out/compare-scores.png"
r --comparison gemma3-layers --view heatmap --heatmap-difference 1 --position 3000 --out "$out/compare-heatmap-difference.png"
MESA_GL_VERSION_OVERRIDE=3.3 r --view all --workspace all --out "$out/no-compute-shaders.png"
# Images and video (multi-axis RoPE): one image scored four ways, the pairs by axis, one model's
# grid with its text curve, and the lesson's scene.
r --comparison image-axes --view grid --out "$out/compare-image-axes.png"
r --comparison image-axes --view frequencies --out "$out/frequencies-by-axis.png"
r --view grid --preset qwen3-vl-8b --vectors random --grid-height 24 --grid-width 32 --query-row 12 --query-column 20 \
    --out "$out/view10-grid.png"
build/ropelab render --lesson builtin --scene 11 --size 1280x720 --out "$out/lesson-images.png"
# Attention (view 11): random q and k with a shared part; per layer as the model computes it
# (Gemma 3's sliding layer, Llama 4's chunked layer); the lesson's scene.
r --view attention --preset llama3.1-8b --tokens text:4096 --token-vectors random --out "$out/view11-attention.png"
r --view attention --preset gemma3-4b --layer 0 --tokens text:4096 --token-vectors random --out "$out/attention-gemma3-sliding.png"
r --view attention --preset llama4-scout --layer 0 --tokens text:20000 --token-vectors random --out "$out/attention-llama4-chunked.png"
build/ropelab render --lesson builtin --scene 12 --size 1280x720 --out "$out/lesson-attention.png"
# Weights (view 12) of the demo GGUF (scripts/demo_model.cpp: Llama 3.1's RoPE, synthetic weights).
build/ropelab_demo_model build/demo.gguf
r --view weights --config build/demo.gguf --weights-layer 1 --weights-head 1 --out "$out/view12-weights.png"
# A lesson beside the lab, driven through the real window (needs a display: xvfb-run).
cat > /tmp/ropelab-gallery-lesson.json <<JSON
[{"click": "Lesson"}, {"click": "Open lesson"}, {"wait": 5}, {"click": "Next scene"}, {"click": "Next scene"},
 {"click": "Next scene"}, {"click": "Next scene"}, {"click": "Next scene"}, {"click": "Next scene"}, {"wait": 60},
 {"drag": "θ (base)", "dx": 25}, {"wait": 10}, {"screenshot": "$PWD/$out/lesson-beside-the-lab.png"}]
JSON
xvfb-run -a -s "-screen 0 1920x1080x24" build/ropelab gui --paused --script /tmp/ropelab-gallery-lesson.json >/dev/null
rm -f /tmp/ropelab-gallery-lesson.json
# The presenter window: the lecturer's console at scene 4 (the audience window opens beside it).
cat > /tmp/ropelab-gallery-presenter.json <<JSON
[{"wait": 5}, {"key": "Right"}, {"key": "Right"}, {"key": "Right"}, {"wait": 90}, {"until_exact": 600},
 {"screenshot": "$PWD/$out/presenter.png"}]
JSON
xvfb-run -a -s "-screen 0 2600x1000x24" build/ropelab gui --size 1280x720 --paused --lesson builtin --presenter \
    --script /tmp/ropelab-gallery-presenter.json >/dev/null
rm -f /tmp/ropelab-gallery-presenter.json
# The audience's screen while presenting with notes in the projector theme (scene 7): a pen stroke
# under the curve's fall (D held) and the laser (L held) on the bound's band, drawn over the
# audience window; the lecturer's window sits beside it on this wide screen.
cat > /tmp/ropelab-gallery-aids.json <<JSON
[{"wait": 5}, {"key": "Right"}, {"key": "Right"}, {"key": "Right"}, {"key": "Right"}, {"key": "Right"}, {"key": "Right"},
 {"wait": 60}, {"hover": "audience", "window": "audience", "at": [0.50, 0.80]}, {"hold": "D", "window": "audience"},
 {"hover": "audience", "window": "audience", "at": [0.50, 0.80], "dx": 300, "dy": 0}, {"release": "D", "window": "audience"},
 {"hover": "audience", "window": "audience", "at": [0.30, 0.55]}, {"hold": "L", "window": "audience"}, {"wait": 2},
 {"screenshot": "$PWD/$out/presenting-aids.png", "window": "audience"}, {"release": "L", "window": "audience"}]
JSON
xvfb-run -a -s "-screen 0 2600x1000x24" build/ropelab gui --size 1280x720 --paused --lesson builtin --presenter \
    --theme projector --script /tmp/ropelab-gallery-aids.json >/dev/null
rm -f /tmp/ropelab-gallery-aids.json
# A slide of each lesson in the library, in the projector theme.
for slide in "rope-from-first-principles 9" "context-extension 11" "images-and-video 4" "attention-and-long-context 4"; do
    set -- $slide
    build/ropelab render --lesson "$1" --scene "$2" --theme projector --size 1280x720 --out "$out/lesson-$1.png"
done
# The Images section: a Qwen2.5-VL layout with a video at 1.5 s per grid step under the 5.x rule,
# where the text after the video resumes below the video's own t ids (flagged).
cat > /tmp/ropelab-gallery-tokens.json <<JSON
[{"wait": 3}, {"click": "Model"}, {"click": "Curves"}, {"click": "Position and playback"}, {"click": "Images"},
 {"wait": 3}, {"screenshot": "$PWD/$out/tokens-panel.png"}]
JSON
xvfb-run -a -s "-screen 0 1920x1080x24" build/ropelab gui --size 1280x720 --paused --preset qwen2.5-vl-7b --view 10 \
    --tokens "text:3,video:3x4x8@1.5,text:4" --rule 5.x --script /tmp/ropelab-gallery-tokens.json >/dev/null
rm -f /tmp/ropelab-gallery-tokens.json
# The web lab in Debian's chromium (headless, SwiftShader's WebGL2), where the page is built
# (./web): a share link of the Overview at θ = 500, paused, as the README shows it.
if [ -f build-web/ropelab.wasm ]; then
    echo '[{"wait": 2}, {"state": "/tmp/ropelab-gallery-web-state.json"}]' > /tmp/ropelab-gallery-web-desktop.json
    xvfb-run -a -s "-screen 0 1920x1080x24" build/ropelab gui --paused --rope-theta 500 --position 120 \
        --script /tmp/ropelab-gallery-web-desktop.json >/dev/null
    share=$(python3 -c "import base64; print(base64.urlsafe_b64encode(open('/tmp/ropelab-gallery-web-state.json','rb').read()).decode().rstrip('='))")
    cat > /tmp/ropelab-gallery-web.json <<JSON
[{"open": "index.html#s=$share"}, {"sleep": 4}, {"frames": 3}, {"screenshot": "$PWD/$out/web.png"}]
JSON
    node --no-warnings --experimental-websocket tests/web/browser.mjs /tmp/ropelab-gallery-web.json build-web >/dev/null
    rm -f /tmp/ropelab-gallery-web.json /tmp/ropelab-gallery-web-state.json /tmp/ropelab-gallery-web-desktop.json
fi

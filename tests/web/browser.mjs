// Drives Debian's chromium (headless) through the DevTools protocol: opens the web lab, waits for
// its frames, and runs steps like `gui --script`'s — clicks and keys go through the browser's own
// input path (Input.dispatch*), onto the canvas, where emscripten's GLFW hands them to the lab.
// Usage: node --experimental-websocket tests/web/browser.mjs STEPS.json [PAGE_FOLDER]
// With PAGE_FOLDER (build-web) it serves that folder on a free local port, and "open" URLs are
// relative to it ("#s=…" opens the lab with a share link).
// Steps: {"open": URL}, {"frames": N} (wait for N more frames), {"sleep": S}, {"screenshot": FILE},
// {"state": FILE}, {"widgets": FILE}, {"click": LABEL[, "kind": KIND]}, {"key": KEY} (a character, or Space, Escape, ArrowLeft …, F1), {"eval": JS, "save": FILE}.
// Prints every console line; exits 1 on a failed step, a page error or a console error.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync, rmSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";

const steps = JSON.parse(readFileSync(process.argv[2], "utf8"));
const folder = process.argv[3];
let base = "";
if (folder) {
    const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".png": "image/png" };
    const server = createServer((request, response) => {
        const name = new URL(request.url, "http://x").pathname.replace(/^\/$/, "/index.html");
        const path = join(folder, name.replace(/\.\./g, ""));
        if (!existsSync(path)) {
            response.writeHead(404).end();
            return;
        }
        response.writeHead(200, { "Content-Type": types[name.slice(name.lastIndexOf("."))] || "application/octet-stream" });
        response.end(readFileSync(path));
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    server.unref();
    base = `http://127.0.0.1:${server.address().port}/`;
}
const width = Number(process.env.ROPELAB_WEB_WIDTH || 1280), height = Number(process.env.ROPELAB_WEB_HEIGHT || 720);
const profile = mkdtempSync(join(tmpdir(), "ropelab-chromium-"));
const browser = spawn(process.env.CHROMIUM || "/usr/bin/chromium", [
    "--headless=new", "--no-sandbox", "--use-angle=swiftshader", "--enable-unsafe-swiftshader",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    `--user-data-dir=${profile}`, `--window-size=${width},${height}`, "--remote-debugging-port=0", "about:blank",
], { stdio: ["ignore", "ignore", "pipe"] });

let failures = 0;
function fail(message) {
    console.error(`browser: FAILED: ${message}`);
    failures++;
}
function finish() {
    browser.kill("SIGKILL");
    try { rmSync(profile, { recursive: true, force: true }); } catch {}
    process.exit(failures ? 1 : 0);
}
setTimeout(() => { fail("timed out after 300 s"); finish(); }, 300000).unref();

const endpoint = await new Promise((resolve, reject) => {
    let text = "";
    browser.stderr.on("data", (chunk) => {
        text += chunk;
        const found = text.match(/DevTools listening on (ws:\/\/\S+)/);
        if (found) resolve(found[1]);
    });
    browser.on("exit", () => reject(new Error("chromium exited: " + text.slice(-2000))));
});
const port = new URL(endpoint).port;
const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
const page = targets.find((t) => t.type === "page");
const socket = new WebSocket(page.webSocketDebuggerUrl);
await new Promise((resolve) => socket.addEventListener("open", resolve));

let nextId = 1;
const pending = new Map();
socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.id && pending.has(message.id)) {
        const { resolve, reject } = pending.get(message.id);
        pending.delete(message.id);
        message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result);
        return;
    }
    if (message.method === "Runtime.consoleAPICalled") {
        const text = message.params.args.map((a) => a.value ?? a.description ?? "").join(" ");
        console.log(`console.${message.params.type}: ${text}`);
        if (message.params.type === "error") fail(`console error: ${text}`);
    } else if (message.method === "Runtime.exceptionThrown") {
        fail(`page exception: ${JSON.stringify(message.params.exceptionDetails.exception?.description ?? message.params.exceptionDetails.text)}`);
    } else if (message.method === "Log.entryAdded" && message.params.entry.level === "error") {
        fail(`browser log error: ${message.params.entry.text} ${message.params.entry.url ?? ""}`);
    }
});
function send(method, params = {}) {
    const id = nextId++;
    socket.send(JSON.stringify({ id, method, params }));
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
}
async function evaluate(expression) {
    const result = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
    if (result.exceptionDetails) throw new Error(result.exceptionDetails.exception?.description ?? result.exceptionDetails.text);
    return result.result.value;
}
const frames = () => evaluate("typeof Module === 'object' && Module.ropelabFrames || 0");
async function waitFrames(count, seconds = 120) {
    const target = (await frames()) + count;
    const deadline = Date.now() + seconds * 1000;
    while ((await frames()) < target) {
        if (Date.now() > deadline) throw new Error(`fewer than ${count} frames in ${seconds} s`);
        await new Promise((r) => setTimeout(r, 50));
    }
}
async function widget(label, kind) {
    const widgets = JSON.parse(await evaluate("Module.ropelab('widgets')"));
    const found = widgets.find((w) => w.label === label && w.visible && (!kind || w.kind === kind));
    if (!found) throw new Error(`no visible widget "${label}"`);
    return found;
}
async function mouse(type, x, y) {
    await send("Input.dispatchMouseEvent", { type, x, y, button: "left", buttons: type === "mouseReleased" ? 0 : 1, clickCount: 1 });
}

await send("Runtime.enable");
await send("Log.enable");
await send("Page.enable");
await send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
for (const step of steps) {
    console.log(`browser: step ${JSON.stringify(step)}`);
    try {
        if (step.open) {
            const loaded = new Promise((resolve) => {
                const listener = (event) => { if (JSON.parse(event.data).method === "Page.loadEventFired") { socket.removeEventListener("message", listener); resolve(); } };
                socket.addEventListener("message", listener);
            });
            const started = Date.now();
            await send("Page.navigate", { url: new URL(step.open, base || undefined).href });
            await loaded;
            await waitFrames(1);
            console.log(`browser: first frame ${Date.now() - started} ms after navigating`);
        } else if (step.sleep) {
            await new Promise((r) => setTimeout(r, step.sleep * 1000));
        } else if (step.frames) {
            await waitFrames(step.frames);
        } else if (step.screenshot) {
            const shot = await send("Page.captureScreenshot", { format: "png" });
            writeFileSync(step.screenshot, Buffer.from(shot.data, "base64"));
        } else if (step.state || step.widgets) {
            writeFileSync(step.state || step.widgets, await evaluate(`Module.ropelab('${step.state ? "state" : "widgets"}')`));
        } else if (step.click) {
            const w = await widget(step.click, step.kind);
            const x = w.x + w.w / 2, y = w.y + w.h / 2;
            await mouse("mouseMoved", x, y);
            await waitFrames(2);
            await mouse("mousePressed", x, y);
            await waitFrames(2);
            await mouse("mouseReleased", x, y);
            await waitFrames(2);
        } else if (step.key) {
            // emscripten's GLFW reads the DOM keyCode, which the protocol sets from
            // windowsVirtualKeyCode: letters and digits are their capitals' codes.
            const named = { Space: [" ", 32], Escape: ["Escape", 27], ArrowLeft: ["ArrowLeft", 37], ArrowRight: ["ArrowRight", 39],
                            ArrowUp: ["ArrowUp", 38], ArrowDown: ["ArrowDown", 40], Enter: ["Enter", 13], F1: ["F1", 112] };
            const [key, keyCode] = named[step.key] || [step.key, step.key.toUpperCase().charCodeAt(0)];
            const code = named[step.key] ? step.key : /[0-9]/.test(key) ? `Digit${key}` : `Key${key.toUpperCase()}`;
            const event = { key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
            await send("Input.dispatchKeyEvent", { type: "keyDown", ...event, text: key.length === 1 ? key : undefined });
            await waitFrames(2);
            await send("Input.dispatchKeyEvent", { type: "keyUp", ...event });
            await waitFrames(2);
        } else if (step.eval) {
            const value = await evaluate(step.eval);
            if (step.save) writeFileSync(step.save, typeof value === "string" ? value : JSON.stringify(value));
        } else {
            throw new Error("unknown step");
        }
    } catch (error) {
        fail(`${JSON.stringify(step)}: ${error.message}`);
        break;
    }
}
finish();

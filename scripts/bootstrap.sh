# Shared by ./run and ./test: install what the build needs, then configure and build into build/.
# Sourced, not executed, so both entry points stay one line each.

# Debian packages the build and the tests need. Keep in sync with find_package() in CMakeLists.txt.
ROPELAB_PACKAGES=(
    cmake ninja-build g++ pkg-config
    nlohmann-json3-dev libcli11-dev libfmt-dev zlib1g-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    libepoxy-dev libegl-dev libgl-dev libegl-mesa0 libgl1-mesa-dri
    libimgui-dev libglfw3-dev libstb-dev fonts-dejavu-core libcairo2-dev
    xvfb xauth xdotool ffmpeg poppler-utils libxml2-utils
    # ./package and its tests: CPack's dpkg-shlibdeps, the validators, the MIME lookup, the icon.
    dpkg-dev file desktop-file-utils appstream lintian xdg-utils libfile-mimeinfo-perl
    shared-mime-info groff-base man-db librsvg2-bin bash-completion
)

missing_packages() {
    local pkg
    for pkg in "${ROPELAB_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
    done
}

install_missing_packages() {
    local missing
    missing=$(missing_packages | tr '\n' ' ')
    [ -z "${missing// /}" ] && return 0
    if [ "$(id -u)" -ne 0 ]; then
        echo "ropelab needs these Debian packages: $missing" >&2
        echo "Install them with:" >&2
        echo "  sudo apt-get update && sudo apt-get install -y $missing" >&2
        exit 1
    fi
    echo "Installing: $missing"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
}

build_ropelab() {
    # Configure once; later runs only rebuild what changed (ninja is incremental).
    # ./run and ./test share one configuration so switching between them never rebuilds everything.
    if [ ! -f build/CMakeCache.txt ]; then
        cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DROPELAB_WERROR=ON
    fi
    cmake --build build --parallel "$(nproc)"
}

# ./web: the browser build. emscripten (Debian 12: 3.1.6) compiles; the header-only libraries
# and the font come from the desktop's packages; chromium runs the page's tests.
ROPELAB_WEB_PACKAGES=(
    cmake ninja-build pkg-config emscripten nodejs dpkg-dev python3
    nlohmann-json3-dev libfmt-dev libstb-dev fonts-dejavu-core
    chromium
)

install_web_packages() {
    local desktop=("${ROPELAB_PACKAGES[@]}")
    ROPELAB_PACKAGES=("${ROPELAB_WEB_PACKAGES[@]}")
    install_missing_packages
    ROPELAB_PACKAGES=("${desktop[@]}")
}

# Dear ImGui 1.86 and zlib as Debian's source packages (libimgui-dev ships an x86 library only),
# unpacked into build-web/debian-sources through a private apt state: nothing on the system changes.
fetch_web_sources() {
    local dir=build-web/debian-sources
    if ls -d "$dir"/imgui-1.86* "$dir"/zlib-1.2.* >/dev/null 2>&1; then return 0; fi
    mkdir -p "$dir/apt/lists/partial"
    cat >"$dir/apt/deb-src.sources" <<'SOURCES'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
    local apt=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$PWD/$dir/apt"
               -o "Dir::State::Lists=$PWD/$dir/apt/lists" -o Debug::NoLocking=1 -qq)
    apt-get "${apt[@]}" update
    (cd "$dir" && apt-get "${apt[@]}" source imgui=1.86+ds-1 zlib 2>&1 | grep -v "^W: Download is performed unsandboxed" || true)
    ls -d "$dir"/imgui-1.86* "$dir"/zlib-1.2.* >/dev/null
}

build_web() {
    # emcc's JavaScript optimiser needs acorn, which Debian's node finds only here.
    export NODE_PATH=/usr/share/nodejs
    if [ ! -f build-web/CMakeCache.txt ]; then
        emcmake cmake -S . -B build-web -G Ninja -DCMAKE_BUILD_TYPE=Release \
            -DROPELAB_WEB_SOURCES="$PWD/build-web/debian-sources" >/dev/null
    fi
    cmake --build build-web --parallel "$(nproc)"
}

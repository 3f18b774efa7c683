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

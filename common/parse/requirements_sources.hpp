#pragma once
// Requirements in other clothes: what a project or a paste declares without a requirements file.
// Install commands in shell scripts, Dockerfiles, READMEs and prose (`pip install ...`, `python -m
// pip install`, `conda install|create ...`, `mamba install`, a `pip._internal.main(['install', ...])`
// call), a Dockerfile's `FROM tensorflow/tensorflow:2.4.1-gpu`, package listings (`conda list`,
// `pip list`, markdown tables of them) and markdown bullets ("- Tensorflow=2.2.0", "* Tensorflow-gpu
// 2.1"). Each reader looks at one line (continuations already joined) and adds what it found.

#include <string_view>

#include "common/parse/requirements_parser.hpp"

namespace tfwsl::parse {

// `pip install a b==1`, `conda install -c x a=1 -y`, ... anywhere in the line (after a prompt, `RUN`,
// `yes |`, inside backticks); the packages it names. Options and their values are skipped; `-r f`
// becomes an include. True when the line held such a command.
bool read_install_command(std::string_view line, int number, RequirementsResult& result);

// `FROM tensorflow/tensorflow:2.4.1-gpu-jupyter`: the image pins TensorFlow (==2.4.1; "latest-gpu" pins
// nothing). True when the line is such a FROM.
bool read_tensorflow_image(std::string_view line, int number, RequirementsResult& result);

// One row of a package listing: `conda list` ("name  version  build  channel", "<pip>" or channel
// "pypi" for pip's), `pip list` ("name  version"), or a markdown table of them ("|name |version |...").
// The version becomes "==version". `listing` says whether the text looks like one (a header or most
// lines so): without it only a markdown table row counts.
bool read_listing_row(std::string_view line, int number, bool listing, RequirementsResult& result);

// "- Tensorflow=2.2.0", "* Tensorflow-gpu 2.1 or 2.3.1", "- tensorflow-gpu  2.2.0  <pip>": a markdown
// bullet that names a package and a version.
bool read_bullet(std::string_view line, int number, RequirementsResult& result);

// True when most non-blank lines of the text are listing rows (or it has a listing header).
bool looks_like_listing(std::string_view text);

}  // namespace tfwsl::parse

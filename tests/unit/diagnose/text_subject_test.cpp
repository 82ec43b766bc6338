// The weighing of what a text is about (common/diagnose/text_subject.hpp): a framework by how often
// it is named against TensorFlow, a tool only by its own messages and only where TensorFlow is not
// named, and never a subject for a TensorFlow text that mentions another framework in passing.
#include "common/diagnose/text_subject.hpp"

#include <catch2/catch.hpp>
#include <string>

#include "common/diagnose/explain_engine.hpp"
#include "common/diagnose/signature_base.hpp"
#include "tests/unit/diagnose/explain_test_support.hpp"

using namespace tfwsl::test::explain;

namespace {

const tfwsl::diagnose::TextSubjects& builtin_subjects() {
  return tfwsl::diagnose::builtin_signature_base()->text_subjects();
}

std::string subject_of(const std::string& text, bool found_other = false) {
  auto reading = tfwsl::diagnose::foreign_subject(text, builtin_subjects(), found_other);
  return reading ? reading->subject->subject : std::string("none");
}

}  // namespace

TEST_CASE("text subject: a framework named more than twice as often as TensorFlow is the subject") {
  CHECK(subject_of("torch.cuda.is_available() returns False on my laptop\n") == "pytorch");
  CHECK(subject_of("I installed pytorch1.3.0 but nothing\n") == "pytorch");  // a version may follow
  CHECK(subject_of(
            "x = Variable(torch.ones(2,2))\nTHCudaCheck FAIL\nreinstall PyTorch\nimport tensorflow as tf works\n") ==
        "pytorch");
  // Named once each: TensorFlow's text that mentions PyTorch in passing stays TensorFlow's.
  CHECK(subject_of("import tensorflow as tf\nI also have torch installed\n") == "none");
  CHECK(subject_of("2024 I tensorflow/core/common_runtime/gpu/gpu_device.cc:1886] Created device\n"
                   "torch works fine\n") == "none");
  // A word inside another word is not the word: torchvision names PyTorch, "libtorchx" does not.
  CHECK(subject_of("pip install torchvision\n") == "pytorch");
  CHECK(subject_of("the storch utility failed\n") == "none");
  CHECK(subject_of("ggml_init_cublas: no CUDA devices found\n") == "llama.cpp");
}

TEST_CASE("text subject: a tool needs its own message, no TensorFlow and nothing else found") {
  const std::string npm = "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n";
  CHECK(subject_of(npm) == "npm");
  CHECK(subject_of(npm, true) == "none");  // explain found something of its own there
  CHECK(subject_of(npm + "pip install tensorflow\n") == "none");
  // The tool's name alone is not its message: a WSL list naming docker-desktop is WSL's.
  CHECK(subject_of("  NAME              STATE           VERSION\n* docker-desktop    Running         2\n") == "none");
  CHECK(subject_of("ERROR: No matching distribution found for scikit-learn>=0.23.0\n") == "pip");
  CHECK(subject_of("ERROR: No matching distribution found for tensorflow==2.15\n") == "none");
  CHECK(subject_of("CMake Error at CMakeLists.txt:12 (find_package):\n-- Configuring incomplete, errors occurred!\n") ==
        "cmake");
  CHECK(
      subject_of("FAILURE: Build failed with an exception.\n* What went wrong:\nExecution failed for task ':app'.\n") ==
      "gradle");
  CHECK(subject_of("Error: CSV file not found\n") == "none");  // not C#'s "error CS0246"
  // A framework wins over a tool: pip failing to find torch is about PyTorch.
  CHECK(subject_of("ERROR: No matching distribution found for torch==1.3\n") == "pytorch");
}

TEST_CASE("text subject: explain reports it in the about field and drops TensorFlow's verdicts") {
  auto e =
      run("Exception in thread \"main\" java.lang.NoClassDefFoundError: groep3/Mail/Mail\n"
          "\tat com.mycompany.TestMail.main(TestMail.java:29)\n");
  CHECK(e.kind == "unknown");
  CHECK(e.about == "java");
  REQUIRE(has(e, "explain.not-tensorflow"));
  CHECK(contains(find(e, "explain.not-tensorflow")->evidence, "line 1:"));
  CHECK_FALSE(has(e, "explain.unrecognised"));
  // A bug template whose rows read as a requirements file is the framework's, kind unknown.
  auto t =
      run("### Your current environment\n\ntorch                             2.5.1\n"
          "torchvision                       0.20.1\nnumpy 1.26.4\n");
  CHECK(t.kind == "unknown");
  CHECK(t.about == "pytorch");
  CHECK_FALSE(has(t, "req.needs-wsl"));
}

TEST_CASE("text subject: the rules are read from the document and checked") {
  const std::string head = "signatures:\n  - {id: a.b, severity: info, kinds: [any], match: [x], summary: s}\n";
  auto ok = tfwsl::diagnose::SignatureBase::load(head +
                                                     "subjects:\n  tensorflow_words: [tensorflow]\n  frameworks:\n"
                                                     "    - {subject: jax, name: JAX, words: [JAX], fix: f}\n",
                                                 "test");
  INFO((ok ? std::string() : ok.error().message));
  REQUIRE(ok);
  REQUIRE(ok->text_subjects().subjects.size() == 1);
  CHECK(ok->text_subjects().subjects[0].words[0] == "jax");  // lower-cased as read
  auto no_words = tfwsl::diagnose::SignatureBase::load(
      head + "subjects:\n  frameworks:\n    - {subject: jax, name: JAX, fix: f}\n", "test");
  REQUIRE_FALSE(no_words);
  CHECK(contains(no_words.error().message, "subjects"));
  auto no_message = tfwsl::diagnose::SignatureBase::load(
      head + "subjects:\n  tools:\n    - {subject: npm, name: npm, words: [npm], fix: f}\n", "test");
  REQUIRE_FALSE(no_message);
  CHECK(contains(no_message.error().message, "'messages'"));
}

// View 11: attention over the token layout (being built: issue 26).
#include "ui/widgets.h"
#include "views/views.h"

namespace ropelab::views {

void attention_view(Context&) { ui::text_disabled("attention: logits → causal mask → softmax"); }

}  // namespace ropelab::views

//! The two ways into a network from the bar, kept apart: Join (an
//! invitation link opens its invitation page; a network's link or id joins
//! it, with a token when it needs one) and Create (a name and who may join,
//! the token asked only for a token network). Each form has one primary
//! button, "Join" or "Create network".

use super::Networks;
use super::create::{Access, CHOICES};
use leptos::prelude::*;

/// The path of the invitation page an invitation link names
/// (`…/invite/{network}#{code}`), if `input` is one.
pub fn invitation_path(input: &str) -> Option<String> {
    let input = input.trim();
    let at = input.find("/invite/")?;
    let rest = &input[at..];
    let (path, code) = rest.split_once('#')?;
    let network = path.trim_start_matches("/invite/");
    (!network.is_empty() && !code.trim().is_empty() && !network.contains(['/', '?']))
        .then(|| format!("{path}#{}", code.trim()))
}

/// What was typed in `field`, trimmed, when anything was.
fn entered(field: RwSignal<String>) -> Option<String> {
    Some(field.get_untracked().trim().to_owned()).filter(|text| !text.is_empty())
}

/// The problem the last attempt left, as an alert.
fn problem_view(state: Networks) -> impl IntoView {
    let problem = state.problem();
    view! {
        <Show when=move || problem.get().is_some()>
            <p class="problem" role="alert">{move || problem.get().unwrap_or_default()}</p>
        </Show>
    }
}

/// Join: an invitation link, or a network's link or id (and its token).
#[component]
pub fn JoinForm() -> impl IntoView {
    let state = Networks::get();
    let target = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let person = RwSignal::new(String::new());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let what = target.get_untracked();
        // An invitation link opens its page, which asks a name and accepts.
        if let Some(path) = invitation_path(&what) {
            let _ = window().location().set_href(&path);
            return;
        }
        state.add(
            what.trim().to_owned(),
            entered(token),
            entered(person),
            None,
        );
    };
    view! {
        <form class="join-form" aria-label="Join a network" on:submit=submit>
            <label>"Invitation link, or the network's link or id"
                <input name="network" autocomplete="off" placeholder="https://…/invite/…, or demo" bind:value=target />
            </label>
            <label>"Token (if it needs one)"
                <input name="token" type="password" autocomplete="off" bind:value=token />
            </label>
            <label>"Your name"
                <input name="person" autocomplete="nickname" placeholder="e.g. ada" bind:value=person />
            </label>
            <div class="form-actions"><button type="submit">"Join"</button></div>
            {problem_view(state)}
        </form>
    }
}

/// Create: a name and who may join (the token only for a token network).
#[component]
pub fn CreateForm() -> impl IntoView {
    let state = Networks::get();
    let name = RwSignal::new(String::new());
    let token = RwSignal::new(String::new());
    let choice = RwSignal::new(CHOICES[0].0.to_owned());
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let access = Access::from_choice(&choice.get_untracked(), entered(token));
        state.add(
            name.get_untracked().trim().to_owned(),
            None,
            None,
            Some(access),
        );
    };
    let explanation = move || {
        CHOICES
            .iter()
            .find(|(value, ..)| *value == choice.get())
            .map(|(.., text)| *text)
            .unwrap_or_default()
    };
    view! {
        <form class="create-form" aria-label="Create a network" on:submit=submit>
            <label>"Network name"
                <input name="network-name" autocomplete="off" placeholder="e.g. UX Team" bind:value=name />
            </label>
            <fieldset class="access-choice">
                <legend>"Who may join"</legend>
                {CHOICES.iter().map(|(value, label, _)| view! {
                    <label class="choice">
                        <input type="radio" name="access" value=*value
                            prop:checked=move || choice.get() == *value
                            on:change=move |_| choice.set((*value).to_owned()) />
                        {*label}
                    </label>
                }).collect_view()}
                <p class="explanation">{explanation}</p>
            </fieldset>
            <Show when=move || choice.get() == "token">
                <label>"Access token (at least 8 characters)"
                    <input name="token" type="password" autocomplete="new-password" bind:value=token />
                </label>
            </Show>
            <div class="form-actions"><button type="submit">"Create network"</button></div>
            {problem_view(state)}
        </form>
    }
}

#[cfg(test)]
mod tests {
    use super::invitation_path;

    #[test]
    fn an_invitation_link_opens_its_page_and_nothing_else_does() {
        for (input, page) in [
            (
                " https://edge.example/invite/ab12cd34#c0ffee ",
                Some("/invite/ab12cd34#c0ffee"),
            ),
            ("/invite/lab#x", Some("/invite/lab#x")),
            ("https://edge.example/invite/lab", None),
            ("https://edge.example/invite/#x", None),
            ("demo", None),
            ("https://edge.example/networks/lab", None),
        ] {
            assert_eq!(invitation_path(input).as_deref(), page, "{input}");
        }
    }
}

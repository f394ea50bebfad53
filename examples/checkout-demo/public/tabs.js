// The Buy and Sell tabs: one panel shown at a time, the choice kept in the URL's fragment (#sell),
// so a link or a reload opens the same tab. Each panel's script hears `tab-shown` and loads itself.

const tabs = [...document.querySelectorAll('[role="tab"]')];

function show(name) {
  for (const tab of tabs) {
    const selected = tab.dataset.tab === name;
    tab.setAttribute('aria-selected', String(selected));
    document.getElementById(tab.getAttribute('aria-controls')).hidden = !selected;
  }
  document.dispatchEvent(new CustomEvent('tab-shown', { detail: name }));
}

const fromHash = () => (location.hash === '#sell' ? 'sell' : 'buy');

for (const tab of tabs)
  tab.addEventListener('click', () => {
    history.replaceState(null, '', tab.dataset.tab === 'sell' ? '#sell' : location.pathname + location.search);
    show(tab.dataset.tab);
  });
window.addEventListener('hashchange', () => show(fromHash()));
show(fromHash());

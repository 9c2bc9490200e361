package wasmpool

// Test hooks.

// takeSlot removes one slot (an idle instance, or nil) from the current generation.
func (p *Pool) takeSlot() *instance { return <-p.gen.Load().slots }

// putSlot gives a slot back.
func (p *Pool) putSlot(in *instance) { p.gen.Load().slots <- in }

// closeModule closes an instance's module under the pool, as a crashed guest would be.
func (in *instance) closeModule() { in.close() }

// setBeforeCall installs a hook run before each call into an instance.
func (p *Pool) setBeforeCall(f func()) { p.beforeCall = f }

//go:build chachakit_impl_env

package impl

const envTag = true
